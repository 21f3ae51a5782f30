export * from './schema.ts';
export * from './client.ts';
export * from './transaction.ts';
