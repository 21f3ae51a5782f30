import { AlignmentType, Document, Footer, Packer, PageNumber, PageOrientation, Paragraph, TextRun } from 'docx';
import { articleBody } from './article-body.ts';
import { documentStyles } from './document-styles.ts';
import { DEFAULT_MAX_IMAGE_BYTES, type DocxInput } from './docx-input.ts';
import { pageGeometry } from './page-geometry.ts';
import { titleBlock } from './title-block.ts';

/** Who the document says made it when the article names no author. */
const FALLBACK_CREATOR = 'Folio';

/**
 * Builds a DOCX of an article: header line, title and source link above the content, on letter or A4 paper, with
 * title and author in the document properties. Odd markup and images that cannot be loaded never fail it.
 */
export async function buildDocx(input: DocxInput): Promise<Buffer> {
  const geometry = pageGeometry(input.pageSize);
  const body = await articleBody(input.contentHtml, {
    geometry,
    baseUrl: input.sourceUrl,
    fetchImage: input.fetchImage,
    maxImageBytes: input.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES,
  });
  const document = new Document({
    title: input.title.trim(),
    creator: (input.author ?? '').trim() || FALLBACK_CREATOR,
    lastModifiedBy: FALLBACK_CREATOR,
    styles: documentStyles(),
    sections: [
      {
        properties: {
          page: {
            size: { width: geometry.widthTwips, height: geometry.heightTwips, orientation: PageOrientation.PORTRAIT },
            margin: {
              top: geometry.marginTwips,
              right: geometry.marginTwips,
              bottom: geometry.marginTwips,
              left: geometry.marginTwips,
              header: 720,
              footer: 720,
            },
          },
        },
        footers: { default: pageNumberFooter() },
        children: [...titleBlock(input), ...body],
      },
    ],
  });
  return Packer.toBuffer(document);
}

function pageNumberFooter(): Footer {
  return new Footer({
    children: [new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ children: [PageNumber.CURRENT], size: 18 })] })],
  });
}
