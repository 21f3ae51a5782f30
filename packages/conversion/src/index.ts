export * from './errors.ts';
export * from './convert.ts';
export { markdownToHtml } from './markdown.ts';
export { htmlToText, countWords } from './text.ts';
