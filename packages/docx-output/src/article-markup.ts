import { elementsNamed, fitTableSpans, parseHtmlDocument, tableAsParagraphs, tagSet } from '@folio/dom';
import type { EmbeddableImage, ImageOutcome } from './image-loading.ts';

/**
 * The article's markup as jsdom parses it (the body of a document from the thread's window, @folio/dom), without
 * what has no place in a document: scripts and their fallbacks, templates, document-level elements, and inline SVG
 * (whose references a word processor could follow), which gives way to its label. The document has scripting
 * disabled and no browsing context: scripts never run, nothing is loaded, and `<style>` is not evaluated here.
 */
export function parseArticle(html: string): HTMLElement {
  const body = parseHtmlDocument(`<!DOCTYPE html><body>${html}`).body;
  for (const element of unwanted(body)) {
    const label = element.localName === 'svg' ? element.getAttribute('aria-label')?.trim() : undefined;
    element.replaceWith(...(label ? [body.ownerDocument.createTextNode(label)] : []));
  }
  return body;
}

const UNWANTED = tagSet('script', 'noscript', 'template', 'base', 'link', 'meta', 'svg', 'source');

/** The elements `parseArticle` drops, in document order: a `<source>` only where it belongs to a `<picture>`. */
function unwanted(root: HTMLElement): Element[] {
  return elementsNamed(root, UNWANTED).filter((element) => element.localName !== 'source' || element.parentElement?.localName === 'picture');
}

/**
 * The address each `<img>` shows: its `src`, or the first candidate of its `srcset` when it has no `src`, made
 * absolute against the source page when it is relative (`data:` URLs are used as they are).
 */
export function imageSource(img: Element, baseUrl: string | null): string | null {
  const written = img.getAttribute('src')?.trim() || img.getAttribute('srcset')?.trim().split(/\s+/)[0]?.replace(/,$/, '');
  if (!written) return null;
  if (/^data:/i.test(written) || !baseUrl) return written;
  try {
    return new URL(written, baseUrl).href;
  } catch {
    return written;
  }
}

export function imageSources(article: HTMLElement, baseUrl: string | null): string[] {
  return [...article.querySelectorAll('img')].map((img) => imageSource(img, baseUrl)).filter((source): source is string => source !== null);
}

export interface PreparedMarkup {
  html: string;
  /** The embeddable images by the placeholder address their `<img src>` now has. */
  images: Map<string, EmbeddableImage>;
}

/** Placeholder addresses keep megabytes of `data:` URLs out of the second parse and out of docx's own decoding. */
const PLACEHOLDER = 'folio-image:';

/**
 * Rewrites the parsed article for docx's HTML importer: images point at their loaded bytes or give way to their
 * alt text; links keep only destinations a reader can safely follow; no table's grid grows far past its markup.
 */
export function prepareMarkup(article: HTMLElement, outcomes: Map<string, ImageOutcome>, baseUrl: string | null): PreparedMarkup {
  const images = new Map<string, EmbeddableImage>();
  const keys = new Map<string, string>();
  const document = article.ownerDocument;

  for (const img of article.querySelectorAll('img')) {
    const source = imageSource(img, baseUrl);
    const outcome = source === null ? undefined : outcomes.get(source);
    if (source === null || !outcome?.ok) {
      const alt = img.getAttribute('alt')?.trim();
      img.replaceWith(...(alt ? [document.createTextNode(alt)] : []));
      continue;
    }
    let key = keys.get(source);
    if (key === undefined) {
      key = `${PLACEHOLDER}${keys.size}`;
      keys.set(source, key);
      images.set(key, outcome.image);
    }
    fitToImage(img);
    img.setAttribute('src', key);
  }

  for (const link of article.querySelectorAll('a[href]')) {
    const href = safeHref(link.getAttribute('href') ?? '', baseUrl);
    if (href === null) link.removeAttribute('href');
    else link.setAttribute('href', href);
  }

  fitTables(article);
  return { html: article.innerHTML, images };
}

/**
 * Tables fitted to their markup (@folio/dom `fitTableSpans`): docx's importer builds every slot of a table's grid,
 * and a table still too large without its spans (one row of a thousand cells among a thousand rows of one: docx pads
 * every row to the widest, a million slots) has its rows written as paragraphs, their cells parted by " | ".
 */
function fitTables(article: HTMLElement): void {
  for (const table of fitTableSpans(article).tooLarge) table.replaceWith(...tableAsParagraphs(table));
}

/**
 * An image is sized from its own bytes (aspect ratio included), scaled down to the page by the importer. A plain
 * `width` attribute is honoured as a browser would; `height` and inline styles are not, because lazy-loading markup
 * often leaves placeholder sizes (1×1) on an image whose real source was filled in later.
 */
function fitToImage(img: Element): void {
  const width = img.getAttribute('width')?.trim() ?? '';
  for (const name of ['height', 'style', 'srcset', 'sizes']) img.removeAttribute(name);
  if (!/^\d+(\.\d+)?(px)?$/.test(width) || Number.parseFloat(width) < 8) img.removeAttribute('width');
}

/**
 * A link a reader may follow from Word: http(s), mailto and tel, made absolute against the source page; `#id`
 * stays a link within the document. Anything else (javascript:, file:, UNC-like paths, relative links with nothing
 * to resolve them against) keeps its words and loses its destination.
 */
function safeHref(href: string, baseUrl: string | null): string | null {
  const trimmed = href.trim();
  if (trimmed.startsWith('#')) return trimmed.length > 1 ? trimmed : null;
  try {
    const url = baseUrl ? new URL(trimmed, baseUrl) : new URL(trimmed);
    return ['http:', 'https:', 'mailto:', 'tel:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}
