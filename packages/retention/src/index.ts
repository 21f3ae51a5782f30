export * from './sweep.ts';
export * from './stored-keys.ts';
