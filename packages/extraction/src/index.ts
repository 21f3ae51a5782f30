export { extractArticle, type ExtractedArticle, type ExtractOptions } from './article.ts';
export { NoArticleError } from './errors.ts';
export { htmlToText, nodeToText, type TextOptions } from './text.ts';
export { detectDirection, detectLanguage } from './language.ts';
export { countWords } from './words.ts';
export { hostOf } from './host.ts';
