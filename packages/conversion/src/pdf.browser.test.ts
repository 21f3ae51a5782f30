import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { PdfRenderer } from '@folio/pdf';
import { pdfInfo, pdfText } from '@folio/pdf/test-support/poppler';
import { convert } from './index.ts';

/**
 * The article page printed by a real Chromium: the page numbers are the article stylesheet's own margin boxes, so
 * they are checked here, where the page meets the printer, in both directions.
 */
const renderer = new PdfRenderer({ pages: 1 });
beforeAll(() => renderer.start());
afterAll(() => renderer.close());

const BIDI_MARKS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

async function footers(markdown: string, extra: Partial<typeof DEFAULT_OPTIONS> = {}): Promise<{ pages: number; footers: string[] }> {
  const result = await convert(
    { input: { kind: 'markdown', text: markdown }, output: 'pdf', options: { ...DEFAULT_OPTIONS, title: 'Numbered', ...extra } },
    { pdf: renderer },
  );
  if (result.kind !== 'file') throw new Error('expected a file');
  const pages = Number((await pdfInfo(result.bytes)).Pages);
  const lastLines: string[] = [];
  for (let n = 1; n <= pages; n++) {
    const text = await pdfText(result.bytes, ['-f', String(n), '-l', String(n)]);
    lastLines.push(text.replace(BIDI_MARKS, '').trim().split('\n').pop()!.replace(/\s/g, ''));
  }
  return { pages, footers: lastLines };
}

describe('pdf output: page numbers', () => {
  it('numbers every page "n / total" in the footer', async () => {
    const markdown = Array.from({ length: 70 }, (_, i) => `Paragraph ${i + 1}. ${'The river rose again overnight. '.repeat(10)}`).join('\n\n');
    const { pages, footers: lines } = await footers(markdown);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual(Array.from({ length: pages }, (_, i) => `${i + 1}/${pages}`));
  });

  it('keeps the numbers in reading order in a right-to-left document', async () => {
    const markdown = Array.from({ length: 70 }, () => 'ارتفع منسوب النهر مرة أخرى خلال الليل وأغلقت المكتبة أبوابها. '.repeat(8)).join('\n\n');
    const { pages, footers: lines } = await footers(markdown, { lang: 'ar', dir: 'rtl' });
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual(Array.from({ length: pages }, (_, i) => `${i + 1}/${pages}`));
  });
});
