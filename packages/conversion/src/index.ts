export * from './errors.ts';
export * from './convert.ts';
export { ConversionPool, epochMs, type PoolOptions, type Prepared, type Timeline } from './worker-pool.ts';
export { isHomepage } from './homepage.ts';
export { markdownToHtml } from './markdown.ts';
