export * from './sign.ts';
export * from './plan.ts';
export * from './send.ts';
export * from './schedule.ts';
