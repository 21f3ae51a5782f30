import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One page of the dev set: its HTML, its original address and the annotated article body. */
export interface BenchPage {
  id: string;
  url: string;
  html: string;
  truth: string;
  /** The page's cross-validation half (see `halfOf`). */
  half: Half;
}

/**
 * Cross-validation halves, fixed by the page's site so that no site has pages in both (several sites have two
 * pages here; a rule fitted to one would otherwise be "held out" on its twin). The site is the page's host without
 * a leading `www.`; half A holds the sites whose SHA-256 ends with an even byte, half B the rest. On the 91 dev
 * pages: 46 pages in A, 45 in B. (The byte was chosen for that balance only: the first byte's parity gives 38/53.)
 * Tune a rule on one half and keep it only if it does not hurt the other.
 */
export type Half = 'A' | 'B';

export function halfOf(url: string): Half {
  const site = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  const digest = createHash('sha256').update(site).digest();
  return digest[digest.length - 1]! % 2 === 0 ? 'A' : 'B';
}

export const DEFAULT_DATA_DIR = '/work/shared/bench-data/extraction';

/** Loads and decompresses every page up front, so that timing measures extraction only. */
export function loadPages(dir = process.env.FOLIO_EXTRACTION_BENCH_DATA ?? DEFAULT_DATA_DIR): BenchPage[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { articleBody: string; url: string }
  >;
  return readdirSync(join(dir, 'html'))
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .map((name) => {
      const id = name.replace(/\.html\.gz$/, '');
      const entry = truth[id];
      if (!entry) throw new Error(`no ground truth for ${id}`);
      const html = gunzipSync(readFileSync(join(dir, 'html', name))).toString('utf8');
      return { id, url: entry.url, html, truth: entry.articleBody, half: halfOf(entry.url) };
    });
}
