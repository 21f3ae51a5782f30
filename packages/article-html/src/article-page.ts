import { ARTICLE_PAGE_CSP } from './content-security-policy.ts';
import { escapeHtml } from './escape.ts';
import { ARTICLE_STYLESHEET, PRINTED_ARTICLE_STYLESHEET } from './stylesheet.ts';
import { safeUrl } from './url-policy.ts';

export interface ArticlePageInput {
  title: string;
  /** Already sanitised (`sanitizeHtml`): inserted as it is. */
  contentHtml: string;
  /** Shown under the title (a link). */
  sourceUrl: string | null;
  /** Line of text above the title. */
  headerText: string | null;
  /** Image above the title. */
  headerImageUrl: string | null;
  /** A stylesheet applied AFTER the service's own. */
  cssUrl: string | null;
  /** On `<html lang>`. */
  lang: string | null;
  /** On `<html dir>`. */
  dir: 'ltr' | 'rtl' | null;
  meta?: { author?: string | null; date?: string | null; site?: string | null };
  /** The page is printed to pdf: its print rules apply from the start (`PRINTED_ARTICLE_STYLESHEET`). */
  printed?: boolean;
}

/** A language tag's shape (BCP 47, loosely): anything else is left off rather than put in the page. */
const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i;

/** An absolute address for something the page loads, or `null` (a relative one has nothing to be relative to). */
function absoluteResource(url: string | null, kind: 'image' | 'resource'): string | null {
  if (!url) return null;
  const safe = safeUrl(url, kind, null);
  return safe !== null && /^(?:https?:|data:image\/)/i.test(safe) ? safe : null;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
}

/** A date as printed: the calendar date of an ISO 8601 timestamp, any other string as it is. */
function dateElement(date: string): string {
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(date);
  return iso
    ? `<time datetime="${escapeHtml(date)}">${escapeHtml(iso[1]!)}</time>`
    : `<span class="folio-date">${escapeHtml(date)}</span>`;
}

/** The line under the title: site · author · date · link, each only when known. */
function sourceLine(input: ArticlePageInput): string | null {
  const parts: string[] = [];
  const site = text(input.meta?.site);
  const author = text(input.meta?.author);
  const date = text(input.meta?.date);
  if (site) parts.push(`<span class="folio-site">${escapeHtml(site)}</span>`);
  if (author) parts.push(`<span class="folio-author">${escapeHtml(author)}</span>`);
  if (date) parts.push(dateElement(date));
  const source = text(input.sourceUrl);
  if (source) {
    const href = safeUrl(source, 'link', null);
    parts.push(
      href !== null && /^https?:/i.test(href)
        ? `<a class="folio-source-link" href="${escapeHtml(href)}">${escapeHtml(source)}</a>`
        : `<span class="folio-source-link">${escapeHtml(source)}</span>`,
    );
  }
  return parts.length > 0 ? `<p class="folio-source">${parts.join('')}</p>` : null;
}

function header(input: ArticlePageInput): string {
  const lines: string[] = [];
  const image = absoluteResource(input.headerImageUrl, 'image');
  if (image) lines.push(`<img class="folio-header-image" src="${escapeHtml(image)}" alt="">`);
  const headerText = text(input.headerText);
  if (headerText) lines.push(`<p class="folio-header-text">${escapeHtml(headerText)}</p>`);
  const title = text(input.title);
  if (title) lines.push(`<h1 class="folio-title">${escapeHtml(title)}</h1>`);
  const source = sourceLine(input);
  if (source) lines.push(source);
  return lines.length > 0 ? `<header class="folio-header">\n${lines.join('\n')}\n</header>\n` : '';
}

/** A clean, printable, self-contained article page: the service's own stylesheet inlined, then css_url; no script anywhere. */
export function articlePage(input: ArticlePageInput): string {
  const lang = input.lang && LANGUAGE_TAG.test(input.lang) ? ` lang="${escapeHtml(input.lang)}"` : '';
  const dir = input.dir === 'ltr' || input.dir === 'rtl' ? ` dir="${input.dir}"` : '';
  const css = absoluteResource(input.cssUrl, 'resource');
  const userStylesheet = css ? `<link rel="stylesheet" href="${escapeHtml(css)}">\n` : '';
  return `<!DOCTYPE html>
<html${lang}${dir}>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(ARTICLE_PAGE_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(text(input.title) ?? '')}</title>
<style>${input.printed ? PRINTED_ARTICLE_STYLESHEET : ARTICLE_STYLESHEET}</style>
${userStylesheet}</head>
<body>
<article class="folio-article">
${header(input)}<div class="folio-content">
${input.contentHtml}
</div>
</article>
</body>
</html>
`;
}
