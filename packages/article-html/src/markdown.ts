import { parseLightBody, type LightElement } from '@folio/dom';
import { parseForMarkdown } from './markdown-document.ts';
import { lightToMarkdown } from './markdown-light.ts';
import { dropImages } from './markdown-rules.ts';
import { serviceFor, tidy } from './markdown-service.ts';
import { shapeTables } from './markdown-tables.ts';

export interface MarkdownOptions {
  /** Keep link and image addresses (the interface's `include_links`, default false: links keep only their words). */
  includeLinks?: boolean;
  /**
   * The tree the markup was serialised from, when the caller has it (`plainMarkupBody(…).body`): the Markdown is then
   * written from it, without parsing the markup again.
   */
  parsed?: LightElement;
}

/**
 * Markup that makes comment nodes (`<!--`, `<!x`, `<?x`, `</ x`). parse5's light tree leaves comments out, domino's
 * DOM keeps them, and inside a `<pre>` turndown sees them (a comment before a `<code>` makes it a bare block).
 */
const MAKES_COMMENTS = /<[!?]|<\/[^a-zA-Z]/;

/**
 * Article HTML → GitHub-flavoured Markdown (turndown + @joplin/turndown-plugin-gfm: tables, strikethrough, task
 * lists, fenced code). Written from a light tree (markdown-light.ts) where it can be: the caller's, or one parse5
 * makes of the markup (≈1 ms for a 1,500-word article, against ≈8 ms for turndown's way); otherwise by turndown.
 */
export function htmlToMarkdown(html: string, options: MarkdownOptions = {}): string {
  const includeLinks = options.includeLinks ?? false;
  const fromTree = options.parsed
    ? lightToMarkdown(options.parsed, { includeLinks })
    : MAKES_COMMENTS.test(html)
      ? null
      : lightToMarkdown(parseLightBody(html).body, { includeLinks, markup: 'source' });
  return fromTree ?? htmlToMarkdownByTurndown(html, { includeLinks });
}

/** The same by turndown alone, over domino's DOM: the definition the light-tree path is tested against. */
export function htmlToMarkdownByTurndown(html: string, options: { includeLinks?: boolean } = {}): string {
  const includeLinks = options.includeLinks ?? false;
  const doc = parseForMarkdown(html);
  dropImages(doc.body, includeLinks);
  shapeTables(doc.body);
  const markdown = tidy(serviceFor(includeLinks).turndown(doc.body));
  return markdown === '' ? '' : `${markdown}\n`;
}
