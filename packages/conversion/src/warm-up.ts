import { DEFAULT_OPTIONS } from '@folio/events';
import type { FetchedPage } from '@folio/page-fetch';
import { prepare } from './convert.ts';

const PARAGRAPH =
  '<p>The harbour commission met on Tuesday to weigh a plan that would rebuild the old sea wall before the winter ' +
  'storms arrive, <a href="/minutes">its minutes</a> show, and to <em>raise the quay</em> by half a metre.</p>';

/** A small article page of this worker's own: a web page's path through extraction, the sanitiser and Markdown. */
const PAGE: FetchedPage = {
  url: 'https://folio.invalid/news/warm-up',
  html:
    '<!DOCTYPE html><html lang="en"><head><title>Sea wall</title><meta name="author" content="A. Writer"></head><body>' +
    '<nav><a href="/">Home</a></nav><article><h1>Sea wall</h1>' +
    PARAGRAPH.repeat(3) +
    '<h2>What it costs</h2><ul><li>the wall</li><li>the quay</li></ul>' +
    '<table><tr><th>Item</th><th>Cost</th></tr><tr><td>wall</td><td>4 m</td></tr></table>' +
    PARAGRAPH.repeat(3) +
    '</article><footer>© The Harbour Times</footer></body></html>',
  charset: 'utf-8',
  bytes: 0,
};

/**
 * Converts one web page of the worker's own, before it takes jobs. A worker's first web page took ~240 ms against
 * ~25 ms for the next (measured: V8 compiles jsdom's, Readability's and the sanitiser's code as it first runs it), so
 * the first job after a renderer's start or a worker's replacement paid ten times its cost, and on a busy machine ran
 * past a tight conversion budget (whose clock starts when the worker says it is ready). Its failure is not the
 * worker's: a worker that could not warm up still takes jobs. Whether the page converted.
 */
export async function warmUp(): Promise<boolean> {
  const fetcher = { fetch: async () => PAGE, fetchImage: async () => null };
  const request = { input: { kind: 'url', text: PAGE.url }, output: 'markdown', options: DEFAULT_OPTIONS } as const;
  return prepare(request, { fetcher }).then(
    (converted) => converted.kind === 'content' && converted.content.includes('raise the quay'),
    () => false,
  );
}
