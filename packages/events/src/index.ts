export * from './types.ts';
export * from './schemas.ts';
export * from './topics.ts';
export * from './upcast.ts';
export * from './codec.ts';
export * from './factory.ts';
export * from './text.ts';
export * from './groups.ts';
