import { ExternalHyperlink, HeadingLevel, Paragraph, TextRun } from 'docx';
import { STYLE } from './document-styles.ts';
import type { DocxInput } from './docx-input.ts';

/** What stands above the article: the header line, the title, and the source address as a link. */
export function titleBlock(input: Pick<DocxInput, 'title' | 'headerText' | 'sourceUrl'>): Paragraph[] {
  const blocks: Paragraph[] = [];
  const headerText = (input.headerText ?? '').trim();
  if (headerText) blocks.push(new Paragraph({ style: STYLE.headerText, children: [new TextRun(headerText)] }));
  const title = input.title.trim();
  if (title) blocks.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(title)] }));
  const source = sourceLink(input.sourceUrl);
  if (source) {
    blocks.push(
      new Paragraph({
        style: STYLE.source,
        children: [new ExternalHyperlink({ link: source, children: [new TextRun({ text: source, style: 'Hyperlink' })] })],
      }),
    );
  }
  return blocks;
}

/** Only an http(s) address becomes a link; anything else is not a source a reader can open. */
function sourceLink(sourceUrl: string | null): string | null {
  if (!sourceUrl) return null;
  try {
    const url = new URL(sourceUrl.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
