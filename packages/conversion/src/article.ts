import { plainMarkupBody, sanitizeContent, sanitizeHtml } from '@folio/article-html';
import { boundNoscripts, fitTableSpans, markupWithCodeLinesAsText, parseHtmlDocument, withinNesting, type LightElement } from '@folio/dom';
import type { ConversionOptions, InputKind } from '@folio/events';
import {
  countWords,
  detectDirection,
  detectLanguage,
  extractArticle,
  hostOf,
  htmlToText,
  nodeToText,
  NoArticleError,
  type ExtractedArticle,
} from '@folio/extraction';
import { PageFetchError, type PageFetcher } from '@folio/page-fetch';
import { ConversionError } from './errors.ts';
import { isHomepage } from './homepage.ts';
import { markdownToHtml } from './markdown.ts';

export interface Article extends ExtractedArticle {
  /**
   * The tree `contentHtml` was serialised from, when the content was parsed once already (supplied plain markup,
   * `safeMarkup`): the Markdown outputs are written from it instead of parsing the markup again.
   */
  contentTree?: LightElement;
}

/**
 * The article behind any input, with sanitised content: a web page is fetched and reduced to its article; supplied
 * HTML is the article body; Markdown is rendered. Scripts and anything unsafe are removed in every case (Markdown
 * may carry raw HTML too).
 */
export async function articleFrom(
  input: { kind: InputKind; text: string },
  options: ConversionOptions,
  fetcher: Pick<PageFetcher, 'fetch'> | undefined,
): Promise<Article> {
  return withMarkupFitted(await contentOf(input, options, fetcher));
}

const SPANS = /\b(?:row|col)span\s*=/i;

/**
 * Markup that every output would read wrongly, fitted once for all of them; only content that may need it is parsed
 * again, and when nothing changed it is kept as it was.
 * - Tables whose spans would make their grid far larger than their markup (@folio/dom `fitTableSpans`): 4 KB of
 *   cells spanning 65,534 rows and 1,000 columns held a print slot past 20 s and took docx's importer past 4 GB.
 * - Code blocks whose lines are markup (a `<br>`, a `<div>` a line) rather than newlines (@folio/dom
 *   `markupWithCodeLinesAsText`, parse5 alone): the Markdown fence, the text and the docx read a `<pre>` as its
 *   text, and ran them together. A page's code blocks were made text by the extraction already, before its own
 *   rewriting.
 */
function withMarkupFitted(article: Article): Article {
  let fitted = article;
  if (SPANS.test(article.contentHtml)) {
    const body = parseHtmlDocument(`<!DOCTYPE html><body>${article.contentHtml}`).body;
    // The tree the Markdown outputs are written from is the markup before; they are written from the new markup instead.
    if (fitTableSpans(body).changed) fitted = { ...article, contentHtml: body.innerHTML, contentTree: undefined };
  }
  const lines = markupWithCodeLinesAsText(fitted.contentHtml);
  return lines === null ? fitted : { ...fitted, contentHtml: lines, text: htmlToText(lines), contentTree: undefined };
}

async function contentOf(
  input: { kind: InputKind; text: string },
  options: ConversionOptions,
  fetcher: Pick<PageFetcher, 'fetch'> | undefined,
): Promise<Article> {
  if (input.kind === 'url') {
    if (isHomepage(input.text)) {
      throw new ConversionError('homepage_url', `${input.text} is a site's front page, not an article`);
    }
    if (!fetcher) throw new ConversionError('render_failed', 'this engine was built without a page fetcher', true);
    const page = await fetcher.fetch(input.text).catch((error: unknown) => {
      if (error instanceof PageFetchError) throw new ConversionError(error.code, error.message, error.retryable);
      throw error;
    });
    try {
      return extractArticle(withinNesting(page.html), {
        url: page.url,
        sanitize: (content, restore) => sanitizeContent(content, { baseUrl: page.url, restore }),
      });
    } catch (error) {
      if (error instanceof NoArticleError) throw new ConversionError('parse_failed', 'the page loaded, but no article was found in it');
      throw error;
    }
  }

  const { contentHtml, text, contentTree } =
    input.kind === 'html' ? safeMarkup(input.text, options.source_url) : safeMarkup(markdownToHtml(input.text), null);
  if (!holdsContent(text, contentHtml)) {
    // An empty document is not a success to count: the call fails, and failed calls are free (interface: Metering).
    throw new ConversionError('parse_failed', `the ${input.kind} holds no text or image to convert once scripts and unsafe markup are removed`);
  }
  const sourceUrl = input.kind === 'html' ? options.source_url : null;
  return {
    title: options.title ?? '',
    url: sourceUrl,
    site: hostOf(sourceUrl),
    author: null,
    date: null,
    excerpt: excerptOf(text),
    image: null,
    // Supplied HTML and Markdown state no language: detect it and the direction from the text, as for pages.
    lang: detectLanguage(text),
    dir: detectDirection(text),
    contentHtml,
    text,
    wordCount: countWords(text),
    contentTree,
  };
}

/**
 * Supplied HTML, and the markup markdown-it renders from Markdown (which may carry raw HTML too), made safe with one parse
 * that also gives the text and the tree the Markdown outputs are written from: plain article markup needs nothing
 * from the sanitiser but the address policy (`plainMarkupBody`); anything else goes through DOMPurify and its result
 * is read for the text. Both ways give the same output (tested).
 */
function safeMarkup(html: string, baseUrl: string | null): { contentHtml: string; text: string; contentTree?: LightElement } {
  // Markup nested beyond reason is flattened before anything parses it (`withinNesting`), and a `<noscript>` is
  // bounded as a browser bounds it (`boundNoscripts`), as extraction's parse does for a page.
  const within = boundNoscripts(withinNesting(html));
  const plain = plainMarkupBody(within, baseUrl);
  if (plain) return { contentHtml: plain.html(), text: nodeToText(plain.body), contentTree: plain.body };
  const contentHtml = sanitizeHtml(within, { baseUrl });
  return { contentHtml, text: htmlToText(contentHtml) };
}

/** Elements that are content without a word of text: a chart, a photo, a formula. */
const WORDLESS_CONTENT = /<(?:img|svg|picture|video|audio|math|canvas)[\s/>]/i;

/** Whether supplied input left anything to read or see once made safe: not only whitespace and empty elements. */
function holdsContent(text: string, contentHtml: string): boolean {
  return /[^\s\u200b-\u200d\u2060\ufeff]/.test(text) || WORDLESS_CONTENT.test(contentHtml);
}

function excerptOf(text: string): string | null {
  const first = text.split(/\n\s*\n/).find((p) => p.trim().length > 40) ?? text;
  const clean = first.replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  return clean.length > 200 ? `${clean.slice(0, 197).replace(/\s+\S*$/, '')}…` : clean;
}
