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

/** Whether a document's markup holds at most TAGGED_ELEMENTS_MAX elements (start tags, counted up to the limit). */
export function printsTagged(html: string): boolean {
  let elements = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1) | 0x20; // lower-cased ASCII letter: a start tag
    if (next >= 0x61 && next <= 0x7a && ++elements > TAGGED_ELEMENTS_MAX) return false;
  }
  return true;
}
