import type { PDFOptions } from 'puppeteer-core';

export type PageSize = 'letter' | 'a4';

/** `letter` or `a4`, any case (the interface says page_size is case-insensitive). */
export function pageSizeOf(value: string): PageSize {
  const size = value.toLowerCase();
  if (size === 'letter' || size === 'a4') return size;
  throw new RangeError(`page size must be letter or a4, got ${JSON.stringify(value)}`);
}

/**
 * The footer: page number and count, centred so it reads the same in left-to-right and right-to-left documents.
 * Chromium fills `pageNumber`/`totalPages`. It is a fixed string: nothing from the document goes into a template.
 */
const FOOTER = `<div style="width:100%;margin:0 16mm;text-align:center;font-size:9px;color:#555;font-family:'Noto Sans',sans-serif"><span class="pageNumber"></span>&#8201;/&#8201;<span class="totalPages"></span></div>`;

/** The same page for every document: the service's margins and footer, the caller's paper, backgrounds printed. */
export function printOptions(pageSize: PageSize, timeoutMs: number): PDFOptions {
  return {
    format: pageSize === 'a4' ? 'A4' : 'Letter',
    margin: { top: '18mm', bottom: '20mm', left: '16mm', right: '16mm' },
    displayHeaderFooter: true,
    headerTemplate: '<span></span>', // an empty header; Chromium's default prints the date and the title
    footerTemplate: FOOTER,
    preferCSSPageSize: false,
    printBackground: true,
    timeout: Math.max(1, Math.floor(timeoutMs)),
  };
}
