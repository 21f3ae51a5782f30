import { ExternalHyperlink, HeadingLevel, Paragraph, TextRun } from 'docx';
import { STYLE } from './document-styles.ts';
import type { DocxInput } from './docx-input.ts';

/** Between the parts of the byline, as the pdf's stylesheet puts it (`.folio-source > * + *::before`). */
const BYLINE_SEPARATOR = ' · ';

/**
 * What stands above the article: the header line, the title, and the byline — site, author, date and the source
 * address as a link, each only when known — in the order and form the pdf prints them, so the two documents of one
 * article read the same.
 */
export function titleBlock(input: Pick<DocxInput, 'title' | 'headerText' | 'sourceUrl' | 'author' | 'site' | 'date'>): Paragraph[] {
  const blocks: Paragraph[] = [];
  const headerText = text(input.headerText);
  if (headerText) blocks.push(new Paragraph({ style: STYLE.headerText, children: [new TextRun(headerText)] }));
  const title = text(input.title);
  if (title) blocks.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(title)] }));
  const byline = bylineRuns(input);
  if (byline.length > 0) blocks.push(new Paragraph({ style: STYLE.source, children: byline }));
  return blocks;
}

function bylineRuns(input: Pick<DocxInput, 'sourceUrl' | 'author' | 'site' | 'date'>): (TextRun | ExternalHyperlink)[] {
  const parts: (TextRun | ExternalHyperlink)[] = [];
  const date = text(input.date);
  for (const part of [text(input.site), text(input.author), date && printedDate(date)]) {
    if (part) parts.push(new TextRun(part));
  }
  const link = sourceLink(text(input.sourceUrl));
  if (link) parts.push(new ExternalHyperlink({ link, children: [new TextRun({ text: link, style: 'Hyperlink' })] }));
  return parts.flatMap((part, i) => (i === 0 ? [part] : [new TextRun(BYLINE_SEPARATOR), part]));
}

/** The calendar date of an ISO 8601 timestamp, any other string as it is (as the pdf prints it). */
function printedDate(date: string): string {
  return /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(date)?.[1] ?? date;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
}

/** Only an http(s) address becomes a link; anything else is not a source a reader can open. */
function sourceLink(sourceUrl: string | null): string | null {
  if (!sourceUrl) return null;
  try {
    const url = new URL(sourceUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
