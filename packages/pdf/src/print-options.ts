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
export function printOptions(pageSize: PageSize, timeoutMs: number): PDFOptions {
  return {
    format: pageSize === 'a4' ? 'A4' : 'Letter',
    margin: { top: '18mm', bottom: '20mm', left: '16mm', right: '16mm' },
    displayHeaderFooter: false,
    preferCSSPageSize: false,
    printBackground: true,
    timeout: Math.max(1, Math.floor(timeoutMs)),
  };
}
