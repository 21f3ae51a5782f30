export * from './job.ts';
export * from './store.ts';
export * from './runner.ts';
export * from './replay.ts';
export * from './replay-fold.ts';
export * from './replay-tables.ts';
export * from './replay-verify.ts';
export * from './reapply.ts';
