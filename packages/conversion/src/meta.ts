import type { ArticleMeta } from '@folio/events';
import type { Article } from './article.ts';

/** Longest text a metadata field keeps; longer ones are cut at a word with an ellipsis. */
export const MAX_META_CHARS = 1000;
/** Longest address a metadata field keeps; a longer one (a data: image, say) is left out rather than cut. */
export const MAX_META_URL_CHARS = 8192;

/**
 * The ArticleMeta of an article. A page's metadata is the page's to choose, and it travels inside the job's
 * JobSucceeded event, which has a size limit: a megabyte of <title>, or an og:image that is a data: URL, would make
 * the result impossible to record. Real titles, bylines and excerpts are far below these caps.
 */
export function articleMeta(article: Article): ArticleMeta {
  return {
    title: clip(article.title) ?? '',
    url: link(article.url),
    site: clip(article.site),
    author: clip(article.author),
    date: clip(article.date),
    excerpt: clip(article.excerpt),
    image: link(article.image),
    word_count: article.wordCount,
  };
}

function clip(text: string | null): string | null {
  if (text === null || text.length <= MAX_META_CHARS) return text;
  return `${text.slice(0, MAX_META_CHARS - 1).replace(/\s+\S*$/, '')}…`;
}

function link(url: string | null): string | null {
  return url !== null && url.length > MAX_META_URL_CHARS ? null : url;
}
