export * from './period.ts';
export * from './reserve.ts';
export * from './count.ts';
