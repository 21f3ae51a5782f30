import { articlePage, htmlToMarkdown } from '@folio/article-html';
import { buildDocx } from '@folio/docx-output';
import type { ArticleMeta, ConversionOptions, InputKind, Output } from '@folio/events';
import { htmlToText } from '@folio/extraction';
import type { PageFetcher } from '@folio/page-fetch';
import { RenderTimeoutError, type PdfRenderer } from '@folio/pdf';
import { articleFrom, type Article } from './article.ts';
import { ConversionError } from './errors.ts';
import { settleImages, type ArrivedImage } from './images.ts';
import { articleMeta } from './meta.ts';
import { printableMarkup } from './printable-markup.ts';

export interface ConversionRequest {
  input: { kind: InputKind; text: string };
  output: Output;
  options: ConversionOptions;
}

export type Conversion =
  | { kind: 'content'; output: 'html' | 'text' | 'markdown' | 'json'; content: string; document: ArticleMeta }
  | { kind: 'file'; output: 'pdf' | 'docx'; bytes: Buffer; contentType: string; document: ArticleMeta };

/** What `prepare` leaves for the browser: the printable page of a pdf job. */
export type Printable = { kind: 'print'; output: 'pdf'; html: string; pageSize: 'letter' | 'a4'; document: ArticleMeta };

/** What the engine needs from outside: the network (through the private-network rule) and a browser for pdf. */
export interface EngineDeps {
  fetcher?: Pick<PageFetcher, 'fetch' | 'fetchImage'>;
  pdf?: PdfRenderer;
}

export const CONTENT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

/** Every input to every output. */
export async function convert(request: ConversionRequest, deps: EngineDeps = {}): Promise<Conversion> {
  const prepared = await prepare(request, deps);
  return prepared.kind === 'print' ? print(prepared, deps.pdf) : prepared;
}

/** Prints a prepared page to pdf in the browser. */
export async function print(page: Printable, pdf: PdfRenderer | undefined): Promise<Conversion> {
  if (!pdf) throw new ConversionError('render_failed', 'this engine was built without a browser', true);
  try {
    const bytes = await pdf.render(page.html, { pageSize: page.pageSize });
    return { kind: 'file', output: 'pdf', bytes, contentType: CONTENT_TYPES.pdf, document: page.document };
  } catch (error) {
    if (error instanceof RenderTimeoutError) throw new ConversionError('render_timeout', error.message, true);
    throw error;
  }
}

/**
 * Everything of a conversion that is not the browser's: fetching, extraction, sanitising and every output but
 * pdf, for which it returns the printable page. This is the CPU-bound part; the renderer runs it in worker threads.
 */
export async function prepare(request: ConversionRequest, deps: EngineDeps = {}): Promise<Conversion | Printable> {
  const { input, output, options } = request;
  const article = await articleFrom(input, options, deps.fetcher);
  const document = articleMeta(article);
  const includeLinks = options.include_links;
  switch (output) {
    case 'html': {
      const { shown } = await withImagesThatArrived(article, deps, { inline: false });
      return { kind: 'content', output, content: page(shown, options), document };
    }
    case 'markdown': {
      const body = htmlToMarkdown(article.contentHtml, { includeLinks, parsed: article.contentTree });
      return { kind: 'content', output, content: article.title ? `# ${article.title}\n\n${body}` : body, document };
    }
    case 'text': {
      // Words only is what the article's text already is; addresses need the markup once more.
      const body = includeLinks ? htmlToText(article.contentHtml, { includeLinks }) : article.text;
      return { kind: 'content', output, content: article.title ? `${article.title}\n\n${body}` : body, document };
    }
    case 'json':
      return {
        kind: 'content',
        output,
        content: JSON.stringify({
          ...document,
          content_html: article.contentHtml,
          content_markdown: htmlToMarkdown(article.contentHtml, { includeLinks: true, parsed: article.contentTree }),
        }),
        document,
      };
    case 'pdf': {
      const printable = { ...article, contentHtml: printableMarkup(article.contentHtml) };
      const { shown } = await withImagesThatArrived(printable, deps, { inline: true });
      return { kind: 'print', output, html: page(shown, options, { printed: true }), pageSize: pageSizeOf(options), document };
    }
    case 'docx': {
      const { shown, images } = await withImagesThatArrived(article, deps, { inline: false });
      const bytes = await buildDocx({
        title: article.title,
        headerText: options.header_text,
        author: article.author,
        site: article.site,
        date: article.date,
        sourceUrl: article.url,
        contentHtml: shown.contentHtml,
        pageSize: pageSizeOf(options),
        // Every image left in the markup arrived already; the docx embeds those bytes rather than fetching again.
        fetchImage: async (url) => {
          const image = images.get(url);
          return image ? { data: image.data, contentType: image.mediaType } : null;
        },
      });
      return { kind: 'file', output, bytes, contentType: CONTENT_TYPES.docx, document };
    }
  }
}

/**
 * The article as the html, pdf and docx outputs show it: without the images whose bytes never arrived
 * (`settleImages`), and with the bytes of those that did.
 */
async function withImagesThatArrived(
  article: Article,
  deps: EngineDeps,
  { inline }: { inline: boolean },
): Promise<{ shown: Article; images: ReadonlyMap<string, ArrivedImage> }> {
  const settled = await settleImages(article.contentHtml, { fetchImage: deps.fetcher?.fetchImage.bind(deps.fetcher), inline });
  return { shown: { ...article, contentHtml: settled.contentHtml }, images: settled.images };
}

function page(article: Article, options: ConversionOptions, { printed = false } = {}): string {
  return articlePage({
    printed,
    title: article.title,
    contentHtml: article.contentHtml,
    sourceUrl: article.url,
    headerText: options.header_text,
    headerImageUrl: options.header_image_url,
    cssUrl: options.css_url,
    lang: options.lang ?? article.lang,
    dir: (options.dir as 'ltr' | 'rtl' | null) ?? article.dir,
    meta: { author: article.author, date: article.date, site: article.site },
  });
}

function pageSizeOf(options: ConversionOptions): 'letter' | 'a4' {
  return options.page_size === 'a4' ? 'a4' : 'letter';
}

