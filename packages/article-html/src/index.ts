export { sanitizeContent, sanitizeHtml, type SanitizeContentOptions, type SanitizeOptions } from './sanitize.ts';
export { htmlToMarkdown, htmlToMarkdownByTurndown, type MarkdownOptions } from './markdown.ts';
export { lightToMarkdown, type LightMarkdownOptions } from './markdown-light.ts';
export { articlePage, type ArticlePageInput } from './article-page.ts';
export { ARTICLE_PAGE_CSP } from './content-security-policy.ts';
export { plainMarkupBody } from './plain-markup.ts';
