export * from './kafka.ts';
export * from './topics.ts';
export * from './publisher.ts';
