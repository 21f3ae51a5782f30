export * from './errors.ts';
export * from './convert.ts';
export { ConversionPool, type PoolOptions } from './worker-pool.ts';
export { isHomepage } from './homepage.ts';
export { markdownToHtml } from './markdown.ts';
