import { BorderStyle, LineRuleType, ShadingType, type IStylesOptions } from 'docx';
import type { PageGeometry } from './page-geometry.ts';

/**
 * The document's look, in Word styles rather than direct formatting, so a reader can restyle the whole document
 * from Word's style pane. Sizes are half-points, spacing twips.
 */
export const STYLE = {
  headerText: 'FolioHeaderText',
  source: 'FolioSource',
  quote: 'Quote',
  codeBlock: 'FolioCodeBlock',
  codeBlockText: 'FolioCodeBlockText',
  inlineCode: 'FolioInlineCode',
  caption: 'Caption',
} as const;

const BODY_FONT = 'Calibri';
const HEADING_FONT = 'Calibri Light';
/** Courier New is on every Word and LibreOffice installation; nicer monospace faces are not. */
export const CODE_FONT = 'Courier New';
const MUTED = '595959';

/**
 * A line height as a multiple of the font's own (240 = single). `lineRule` must be said: without it LibreOffice reads
 * `w:line` as an exact height in twips, and 276 twips (13.8 pt) is shorter than a 26 pt title's line, whose wrapped
 * lines then print on top of each other. Word reads the missing rule as auto, so saying it changes nothing there.
 */
const lines = (multiple: number) => ({ line: Math.round(multiple * 240), lineRule: LineRuleType.AUTO });

const heading = (size: number, before: number) => ({
  run: { font: HEADING_FONT, size, bold: true, color: '1F2937' },
  paragraph: { spacing: { before, after: 120 }, keepNext: true, keepLines: true },
});

export function documentStyles(): IStylesOptions {
  return {
    default: {
      document: {
        run: { font: BODY_FONT, size: 22 },
        paragraph: { spacing: { after: 160, ...lines(1.15) } },
      },
      title: { run: { font: HEADING_FONT, size: 52, color: '111827' }, paragraph: { spacing: { after: 120 } } },
      heading1: heading(36, 360),
      heading2: heading(30, 320),
      heading3: heading(26, 280),
      heading4: heading(24, 240),
      heading5: heading(22, 240),
      heading6: { ...heading(22, 240), run: { font: HEADING_FONT, size: 22, italics: true, color: '374151' } },
      caption: { run: { italics: true, size: 18, color: MUTED }, paragraph: { alignment: 'center', spacing: { before: 60, after: 240 } } },
    },
    paragraphStyles: [
      { id: STYLE.headerText, name: 'Header Text', basedOn: 'Normal', next: 'Normal', run: { size: 18, color: MUTED }, paragraph: { spacing: { after: 120 } } },
      { id: STYLE.source, name: 'Source', basedOn: 'Normal', next: 'Normal', run: { size: 18, color: MUTED }, paragraph: { spacing: { after: 360 } } },
      {
        id: STYLE.quote,
        name: 'Quote',
        basedOn: 'Normal',
        next: 'Normal',
        run: { italics: true, color: '404040' },
        paragraph: { border: { left: { style: BorderStyle.SINGLE, size: 18, color: 'BFBFBF', space: 8 } } },
      },
      {
        id: STYLE.codeBlock,
        name: 'Code Block',
        basedOn: 'Normal',
        next: 'Normal',
        run: { font: CODE_FONT, size: 19 },
        paragraph: {
          spacing: { before: 120, after: 200, ...lines(1) },
          shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F3F4F6' },
          border: { top: box(), bottom: box(), left: box(), right: box() },
        },
      },
    ],
    characterStyles: [
      { id: STYLE.inlineCode, name: 'Inline Code', basedOn: 'DefaultParagraphFont', run: { font: CODE_FONT, size: 20, shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F3F4F6' } } },
      { id: STYLE.codeBlockText, name: 'Code Block Text', basedOn: 'DefaultParagraphFont', run: { font: CODE_FONT } },
    ],
  };
}

function box() {
  return { style: BorderStyle.SINGLE, size: 4, color: 'E5E7EB', space: 4 };
}

/** Which Word style docx's HTML importer gives which element (CSS selectors; the most specific wins). */
export const HTML_STYLE_MAP: Readonly<Record<string, string>> = {
  'blockquote, blockquote > p': STYLE.quote,
  pre: STYLE.codeBlock,
  code: STYLE.inlineCode,
  'pre code, pre kbd, pre samp': STYLE.codeBlockText,
  figcaption: STYLE.caption,
};

/** CSS for the importer: images no taller than a page, so a tall narrow image never runs off it. */
export function htmlStylesheet(geometry: PageGeometry): string {
  return `img { max-height: ${geometry.maxImageHeightPx}px; }`;
}
