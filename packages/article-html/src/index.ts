export { sanitizeContent, sanitizeHtml, type SanitizeContentOptions, type SanitizeOptions } from './sanitize.ts';
export { htmlToMarkdown, type MarkdownOptions } from './markdown.ts';
export { articlePage, type ArticlePageInput } from './article-page.ts';
export { ARTICLE_PAGE_CSP } from './content-security-policy.ts';
export { plainMarkupBody } from './plain-markup.ts';
