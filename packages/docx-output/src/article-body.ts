import type { Paragraph, Table } from 'docx';
import { htmlToContent } from 'docx/html';
import { parseArticle, imageSources, prepareMarkup } from './article-markup.ts';
import { HTML_STYLE_MAP, htmlStylesheet } from './document-styles.ts';
import { loadImages, type ImageLoadOptions } from './image-loading.ts';
import { estimateNestingDepth, flattenMarkup, MAX_NESTING } from '@folio/dom';
import type { PageGeometry } from './page-geometry.ts';

export interface ArticleBodyOptions extends ImageLoadOptions {
  geometry: PageGeometry;
  /** Resolves relative links; the article's own links are expected to be absolute already. */
  baseUrl: string | null;
}

/**
 * The article's content as Word paragraphs and tables. Structure (headings, lists, tables, quotes, code, images,
 * links) is read by docx's own HTML importer, the library made for this; markup it cannot take degrades to text.
 */
export async function articleBody(contentHtml: string, options: ArticleBodyOptions): Promise<readonly (Paragraph | Table)[]> {
  const html = estimateNestingDepth(contentHtml, MAX_NESTING) > MAX_NESTING ? flattenMarkup(contentHtml) : contentHtml;
  try {
    const article = parseArticle(html);
    const outcomes = await loadImages(imageSources(article, options.baseUrl), options);
    const prepared = prepareMarkup(article, outcomes, options.baseUrl);
    return importHtml(prepared.html, options.geometry, (key) => prepared.images.get(key)?.data);
  } catch {
    // Markup that defeats the parser (it should not) still yields the article's words rather than a failed job.
    return importHtml(flattenMarkup(html), options.geometry, () => undefined);
  }
}

function importHtml(html: string, geometry: PageGeometry, image: (key: string) => Uint8Array | undefined): readonly (Paragraph | Table)[] {
  return htmlToContent(html, {
    images: image,
    maxImageWidth: geometry.textWidthPx,
    styleMap: HTML_STYLE_MAP,
    stylesheet: htmlStylesheet(geometry),
  });
}
