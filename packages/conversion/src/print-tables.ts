import { fitTableSpans, mayHoldTooLargeTable, parseHtmlDocument, tableAsParagraphs } from '@folio/dom';

/**
 * The article's markup as pdf prints it: a table still too large once fitted (@folio/dom `fitTableSpans`: one row
 * far wider than the rest, so that a layout pads every row to it) becomes paragraphs, as docx writes it. Chromium lays
 * a table's whole grid out again on every page it spans, in time that grows with rows × columns: a thousand one-cell
 * rows and one row of a thousand cells (40 KB of markup, a million slots, 72 pages) held a print slot 2.4–4.2 s,
 * measured, and ran past the 20 s render budget on a busy machine; as paragraphs it prints in 0.15–0.25 s.
 *
 * Markup is parsed again only where its tags say such a table may be there (`mayHoldTooLargeTable`).
 */
export function printableTables(contentHtml: string): string {
  if (!mayHoldTooLargeTable(contentHtml)) return contentHtml;
  const body = parseHtmlDocument(`<!DOCTYPE html><body>${contentHtml}`).body;
  const { tooLarge } = fitTableSpans(body);
  if (tooLarge.length === 0) return contentHtml;
  for (const table of tooLarge) table.replaceWith(...tableAsParagraphs(table));
  return body.innerHTML;
}
