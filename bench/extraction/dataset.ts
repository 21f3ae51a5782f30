import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One page of the dev set: its HTML, its original address and the annotated article body. */
export interface BenchPage {
  id: string;
  url: string;
  html: string;
  truth: string;
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
      return { id, url: entry.url, html, truth: entry.articleBody };
    });
}
