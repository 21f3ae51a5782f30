import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { extractArticle, htmlToText, NoArticleError } from '@folio/extraction';

/** One extractor's output for one page: what the metrics score. */
export interface Run {
  text: string;
  /** The text output as Folio prints it: title line, blank line, body. */
  titled: string;
  error: string | null;
}

/** A text output as Folio prints it: the title line and a blank line before the body, when there is a title. */
export function titledText(title: string, body: string): string {
  return title ? `${title}\n\n${body}` : body;
}

/** Plain Readability over jsdom, `textContent` of `parse()`: the published baseline. */
export function readabilityRun(page: { html: string; url: string | null }): Run {
  try {
    // A silent console, as in Folio: only the work is measured, not jsdom's printing of CSS errors.
    const dom = new JSDOM(page.html, { url: page.url ?? undefined, virtualConsole: new VirtualConsole() });
    const text = new Readability(dom.window.document).parse()?.textContent ?? '';
    return { text, titled: text, error: null };
  } catch (error) {
    return { text: '', titled: '', error: String(error).slice(0, 80) };
  }
}

/** Folio's extraction as its `text` output prints it; a refused page (parse_failed) is an empty run. */
export function folioRun(page: { html: string; url: string | null }): Run {
  try {
    const article = extractArticle(page.html, { url: page.url });
    const body = htmlToText(article.contentHtml);
    return { text: body, titled: titledText(article.title, body), error: null };
  } catch (error) {
    return { text: '', titled: '', error: error instanceof NoArticleError ? 'no article' : String(error).slice(0, 80) };
  }
}

/**
 * Lets the event loop turn between pages, as it does between a renderer's jobs. jsdom keeps its live ranges and
 * iterators in a set of WeakRefs, and a WeakRef read keeps its target alive until the synchronous run ends: a loop
 * over every page without a turn kept every document it parsed (measured: 1.5 GB of heap after 600 WCXB pages,
 * forced GC included, against a steady 130–160 MB with a turn), ran out of the default heap, and timed pages
 * late in the run under the collector's work on that heap.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
