export * from './errors.ts';
export * from './convert.ts';
export { ConversionPool, type PoolOptions, type Prepared } from './worker-pool.ts';
export { isHomepage } from './homepage.ts';
export { markdownToHtml } from './markdown.ts';
