export * from './job.ts';
export * from './store.ts';
export * from './runner.ts';
export * from './rebuild.ts';
export * from './reapply.ts';
