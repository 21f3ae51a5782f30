import { parseHtmlDocument } from '@folio/dom';
import type { EmbeddableImage, ImageOutcome } from './image-loading.ts';

/**
 * The article's markup as jsdom parses it (the body of a document from the thread's window, @folio/dom), without
 * what has no place in a document: scripts and their fallbacks, templates, document-level elements, and inline SVG
 * (whose references a word processor could follow), which gives way to its label. The document has scripting
 * disabled and no browsing context: scripts never run, nothing is loaded, and `<style>` is not evaluated here.
 */
export function parseArticle(html: string): HTMLElement {
  const body = parseHtmlDocument(`<!DOCTYPE html><body>${html}`).body;
  for (const element of body.querySelectorAll('script, noscript, template, base, link, meta, picture > source, svg')) {
    const label = element.localName === 'svg' ? element.getAttribute('aria-label')?.trim() : undefined;
    element.replaceWith(...(label ? [body.ownerDocument.createTextNode(label)] : []));
  }
  return body;
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
 * alt text; links keep only destinations a reader can safely follow; a cell spans no further than its table goes.
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

  fitSpans(article);
  return { html: article.innerHTML, images };
}

/**
 * Spans as a browser lays them out, and no table larger than Word can be given. A cell's `rowspan` reaches no
 * further than the last row of its row group (`0` means exactly that), its `colspan` no further than HTML's 1,000.
 * docx's importer builds every slot of a table's grid, the ones spans cover and the ones a short row leaves empty
 * included: a 4 KB table of cells each spanning 65,534 rows and 1,000 columns, which a browser lays out as 80 rows of
 * 80,000 columns, took it past 4 GB of memory and brought its process down, and so would 30 KB of a thousand
 * one-cell rows and one row of a thousand cells. A table whose grid would pass MAX_TABLE_SLOTS and twice its cells
 * loses its spans; if that is not enough, its rows become paragraphs, their cells parted by " | ".
 */
function fitSpans(article: HTMLElement): void {
  const remaining = new Map<Element, number>();
  for (const cell of article.querySelectorAll<HTMLTableCellElement>('td[rowspan], th[rowspan], td[colspan], th[colspan]')) {
    if (cell.hasAttribute('colspan')) cell.colSpan = Math.min(cell.colSpan, MAX_COLSPAN); // the setter reflects HTML's clamp
    const row = cell.parentElement;
    const group = row?.parentElement;
    if (!row || !group || !cell.hasAttribute('rowspan')) continue;
    if (!remaining.has(row)) {
      const rows = [...group.children].filter((child) => child.localName === 'tr');
      rows.forEach((r, i) => remaining.set(r, rows.length - i));
    }
    const left = remaining.get(row) ?? 1;
    const span = cell.rowSpan === 0 ? left : Math.min(cell.rowSpan, left);
    if (span <= 1) cell.removeAttribute('rowspan');
    else cell.rowSpan = span;
  }
  for (const table of article.querySelectorAll<HTMLTableElement>('table')) {
    let cells = 0;
    for (const row of table.rows) cells += row.cells.length;
    const limit = Math.max(MAX_TABLE_SLOTS, 2 * cells);
    if (gridSlots(table, limit) !== Infinity) continue;
    for (const row of table.rows) for (const cell of row.cells) cell.removeAttribute('rowspan'), cell.removeAttribute('colspan');
    if (gridSlots(table, limit) !== Infinity) continue;
    table.replaceWith(...rowsAsParagraphs(table));
  }
}

/** A table's caption and rows as paragraphs, each row's cells parted by " | ". */
function rowsAsParagraphs(table: HTMLTableElement): HTMLElement[] {
  const document = table.ownerDocument;
  const paragraph = (nodes: Node[]) => {
    const p = document.createElement('p');
    p.append(...nodes);
    return p;
  };
  const rows = [...table.rows].map((row) => paragraph([...row.cells].flatMap((cell, i) => [...(i > 0 ? [document.createTextNode(' | ')] : []), ...cell.childNodes])));
  return table.caption ? [paragraph([...table.caption.childNodes]), ...rows] : rows;
}

/**
 * The slots of a table's grid, rows × columns, as HTML's table model places its cells (each in the first column its
 * row has free, spans occupying the slots below and beside); Infinity past `limit`, where counting stops, so the work
 * is bounded too.
 */
function gridSlots(table: HTMLTableElement, limit: number): number {
  const busyUntil: number[] = []; // by column: the first row no span from above still occupies
  let width = 0;
  let steps = 0;
  const rows = table.rows;
  for (let r = 0; r < rows.length; r++) {
    let column = 0;
    for (const cell of rows[r]!.cells) {
      while ((busyUntil[column] ?? 0) > r) column++, steps++;
      const until = r + Math.max(1, cell.rowSpan);
      for (let c = 0; c < cell.colSpan; c++) busyUntil[column++] = until, steps++;
      width = Math.max(width, column);
      if (steps > limit || width * rows.length > limit) return Infinity;
    }
  }
  return width * rows.length;
}

/**
 * docx spends ~0.1 ms and ~20 KB on each slot: 500 rows of 40 columns took 2.6 s and 460 MB here. A table of real
 * cells that size or larger is built as it is (its markup is as large as its grid); spans may not make a small
 * table's grid larger, nor a large one's more than twice its cells.
 */
const MAX_TABLE_SLOTS = 20_000;

/** HTML's own cap on `colspan`. */
const MAX_COLSPAN = 1000;

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
