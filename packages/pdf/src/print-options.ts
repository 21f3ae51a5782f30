import type { PDFOptions } from 'puppeteer-core';

export type PageSize = 'letter' | 'a4';

/** `letter` or `a4`, any case (the interface says page_size is case-insensitive). */
export function pageSizeOf(value: string): PageSize {
  const size = value.toLowerCase();
  if (size === 'letter' || size === 'a4') return size;
  throw new RangeError(`page size must be letter or a4, got ${JSON.stringify(value)}`);
}

/**
 * The same paper for every document: the caller's size, the service's margins, backgrounds printed. Page numbers
 * belong to the page being printed, as CSS page-margin boxes (`@page { @bottom-center { … } }`, which the article
 * page's stylesheet sets): Chromium lays them out with the document, where its `displayHeaderFooter` templates lay out
 * a separate document for every page, which costs a fifth of a 1,500-word article's print time (measured: ≈20 ms of
 * ≈90 ms of Chromium CPU for seven pages). The bottom margin leaves them room.
 */
export function printOptions(pageSize: PageSize, timeoutMs: number, tagged = true): PDFOptions {
  return {
    format: pageSize === 'a4' ? 'A4' : 'Letter',
    margin: { top: '18mm', bottom: '20mm', left: '16mm', right: '16mm' },
    displayHeaderFooter: false,
    preferCSSPageSize: false,
    printBackground: true,
    tagged,
    timeout: Math.max(1, Math.floor(timeoutMs)),
  };
}

/**
 * Elements a document may hold and still print tagged. A tagged PDF carries the document's structure (headings,
 * paragraphs, lists, tables, links, each run of text) for screen readers and reflow, and Folio prints every document
 * tagged up to this size. Chromium builds that structure in time that grows faster than the document: measured on
 * one document alone, 10,000 and 40,000 short paragraphs took 5.1 and 45.5 s tagged against 1.8 and 8.3 s untagged,
 * and 5,000, 10,000 and 20,000 list items 2.0, 7.3 and 17.4 s against 1.7, 3.5 and 7.1 s. So a document within the
 * interface's limits could never finish within the render budget: a million characters of Markdown, as a list (878
 * pages) or as short paragraphs (1,437 pages), printed in 44 and 40 s tagged, and print in 12 and 7.5 s untagged.
 * Past this many elements (about 130 pages of the benchmarks' article, 389 elements in 5 pages; 265 of short
 * paragraphs) the print is untagged: its text is still there, in reading order.
 */
export const TAGGED_ELEMENTS_MAX = 10_000;

/**
 * Elements one block (a paragraph, a list item, a cell…) may hold and still print tagged. Within one block the
 * structure's cost grows with the square of its runs: a paragraph of 2,000, 4,000 and 8,000 bold words printed in
 * 0.49, 1.67 and 6.6 s tagged, 0.25 and 0.53 s untagged at 4,000 and 8,000, while the same 8,000 in 80 paragraphs
 * took 0.78 s tagged; through the service, four at a time, the paragraph of 8,000 ran past the 20 s print budget.
 */
export const TAGGED_BLOCK_ELEMENTS_MAX = 2_000;

/** Elements that start or end a block: the inline elements between two of them are one block's runs. */
const BLOCKS = new Set([
  'html', 'head', 'body', 'article', 'section', 'main', 'header', 'footer', 'aside', 'nav', 'div', 'p', 'pre',
  'blockquote', 'address', 'figure', 'figcaption', 'details', 'summary', 'hr', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);

/**
 * Whether a document prints tagged: at most TAGGED_ELEMENTS_MAX elements in all (start tags, counted up to the
 * limit) and at most TAGGED_BLOCK_ELEMENTS_MAX between two block boundaries (start or end tags of BLOCKS).
 */
export function printsTagged(html: string): boolean {
  let elements = 0;
  let inBlock = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    const closing = html.charCodeAt(at + 1) === 0x2f;
    const start = closing ? at + 2 : at + 1;
    if (!isAsciiLetter(html.charCodeAt(start))) continue; // text, a comment, a doctype
    if (!closing && ++elements > TAGGED_ELEMENTS_MAX) return false;
    let end = start + 1;
    while (end < html.length && isNameCharacter(html.charCodeAt(end))) end++;
    if (BLOCKS.has(html.slice(start, end).toLowerCase())) inBlock = 0;
    else if (!closing && ++inBlock > TAGGED_BLOCK_ELEMENTS_MAX) return false;
  }
  return true;
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

function isNameCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}
