export * from './kafka.ts';
export * from './topics.ts';
export * from './publisher.ts';
export * from './failures.ts';
export * from './read-at.ts';
export * from './lag.ts';
export * from './apply-records.ts';
export * from './consume.ts';
