export * from './store.ts';
export * from './park.ts';
