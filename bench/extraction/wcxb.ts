import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * WCXB's development split (/work/shared/bench-data/wcxb): 1,497 pages of seven kinds, each with a reviewed main
 * content, `with` snippets a correct extraction contains and `without` snippets of boilerplate it must not.
 */
export interface WcxbPage {
  id: string;
  /** The page's address; null for the few pages whose ground truth has none. */
  url: string | null;
  /** The domain dev-pages.json gives, else the host of the page's address. */
  domain: string;
  kind: string;
  /** The page's HTML, decompressed when asked (all 1,497 pages at once are 416 MB of markup). */
  html(): string;
  truth: string;
  with: string[];
  without: string[];
}

export const DEFAULT_WCXB_DIR = '/work/shared/bench-data/wcxb';

export const KINDS = ['article', 'documentation', 'service', 'forum', 'product', 'listing', 'collection'] as const;

interface GroundTruth {
  url: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth: { main_content?: string; with?: string[]; without?: string[] };
}

export function loadWcxb(dir = process.env.FOLIO_WCXB_BENCH_DATA ?? DEFAULT_WCXB_DIR): WcxbPage[] {
  const listed = JSON.parse(readFileSync(join(dir, 'dev-pages.json'), 'utf8')) as {
    files: Record<string, { domain?: string; page_type?: string }>;
  };
  return readdirSync(join(dir, 'dev', 'ground-truth'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const id = name.replace(/\.json$/, '');
      const gt = JSON.parse(readFileSync(join(dir, 'dev', 'ground-truth', name), 'utf8')) as GroundTruth;
      const path = join(dir, 'dev', 'html', `${id}.html.gz`);
      const html = () => gunzipSync(readFileSync(path)).toString('utf8');
      const entry = listed.files[id];
      const kind = gt._internal?.page_type?.primary ?? entry?.page_type ?? 'unknown';
      return {
        id,
        url: gt.url || null,
        domain: entry?.domain ?? domainOf(gt.url, html) ?? `page-${id}`,
        kind,
        html,
        truth: gt.ground_truth.main_content ?? '',
        with: gt.ground_truth.with ?? [],
        without: gt.ground_truth.without ?? [],
      };
    });
}

/** The host of the page's address, else of the canonical or og:url address it states. */
function domainOf(url: string | null | undefined, read: () => string): string | null {
  const html = url ? '' : read();
  const stated = /<link[^>]+rel=["']canonical["'][^>]*href=["']([^"']+)/i.exec(html)?.[1] ??
    /<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)/i.exec(html)?.[1];
  for (const candidate of [url, stated]) {
    if (!candidate) continue;
    try {
      return new URL(candidate).hostname;
    } catch {
      // not an absolute address
    }
  }
  return null;
}

/** Python's Unicode `\w` (letters, numbers, underscore), as in metric.ts. */
const WORD = /[\p{L}\p{N}_]+/gu;

export interface WcxbScore {
  precision: number;
  recall: number;
  f1: number;
  withFound: number;
  withTotal: number;
  withoutPresent: number;
  withoutTotal: number;
}

function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/**
 * The README's metric for one page: lower-cased `\w+` words, multiset overlap ÷ the prediction's words (precision),
 * ÷ the truth's words (recall), F1 their harmonic mean; no truth words scores 1 only when nothing is predicted.
 * Snippets are matched as lower-cased substrings (whitespace runs read as one space on both sides).
 */
export function scoreWcxb(page: Pick<WcxbPage, 'truth' | 'with' | 'without'>, prediction: string): WcxbScore {
  const t = words(page.truth);
  const p = words(prediction);
  let overlap = 0;
  let predicted = 0;
  let truthCount = 0;
  for (const [word, count] of p) {
    predicted += count;
    overlap += Math.min(count, t.get(word) ?? 0);
  }
  for (const count of t.values()) truthCount += count;
  let precision: number;
  let recall: number;
  if (truthCount === 0) {
    precision = recall = predicted === 0 ? 1 : 0;
  } else {
    precision = predicted === 0 ? 0 : overlap / predicted;
    recall = overlap / truthCount;
  }
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const text = normalise(prediction);
  const withFound = page.with.filter((s) => text.includes(normalise(s).trim())).length;
  const withoutPresent = page.without.filter((s) => text.includes(normalise(s).trim())).length;
  return { precision, recall, f1, withFound, withTotal: page.with.length, withoutPresent, withoutTotal: page.without.length };
}

export interface WcxbSummary {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  /** Share of `with` snippets found, over all snippets of the pages. */
  withRate: number;
  /** Share of `without` snippets present. */
  withoutRate: number;
}

export function summariseWcxb(scores: WcxbScore[]): WcxbSummary {
  const n = scores.length;
  const mean = (pick: (s: WcxbScore) => number) => (n === 0 ? 0 : scores.reduce((a, s) => a + pick(s), 0) / n);
  const sum = (pick: (s: WcxbScore) => number) => scores.reduce((a, s) => a + pick(s), 0);
  return {
    n,
    precision: mean((s) => s.precision),
    recall: mean((s) => s.recall),
    f1: mean((s) => s.f1),
    withRate: sum((s) => s.withFound) / Math.max(1, sum((s) => s.withTotal)),
    withoutRate: sum((s) => s.withoutPresent) / Math.max(1, sum((s) => s.withoutTotal)),
  };
}
