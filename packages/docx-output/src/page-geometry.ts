import type { DocxInput } from './docx-input.ts';

/** Word measures pages in twentieths of a point; images are placed in CSS pixels (96 per inch). */
const TWIPS_PER_INCH = 1440;
const TWIPS_PER_PIXEL = TWIPS_PER_INCH / 96;

export interface PageGeometry {
  widthTwips: number;
  heightTwips: number;
  marginTwips: number;
  /** Width of the text column: the widest an image may be. */
  textWidthPx: number;
  /** Height of the text column, less room for a caption: the tallest an image may be. */
  maxImageHeightPx: number;
}

/** Word's own sizes for the two paper formats, portrait, with one-inch margins (Word's default for both). */
const PAPER: Record<DocxInput['pageSize'], { width: number; height: number }> = {
  letter: { width: 12240, height: 15840 },
  a4: { width: 11906, height: 16838 },
};

export function pageGeometry(pageSize: DocxInput['pageSize']): PageGeometry {
  const paper = PAPER[pageSize] ?? PAPER.letter;
  const marginTwips = TWIPS_PER_INCH;
  const textWidthTwips = paper.width - 2 * marginTwips;
  const textHeightTwips = paper.height - 2 * marginTwips;
  return {
    widthTwips: paper.width,
    heightTwips: paper.height,
    marginTwips,
    textWidthPx: Math.floor(textWidthTwips / TWIPS_PER_PIXEL),
    maxImageHeightPx: Math.floor((textHeightTwips / TWIPS_PER_PIXEL) * 0.85),
  };
}
