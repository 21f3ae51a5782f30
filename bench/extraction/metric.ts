/**
 * The dev set's metric (bench-data/extraction/README.md), implemented here so the figure is ours to check:
 * words are `\w+` (Unicode-aware, case kept), each text becomes a multiset of word 4-grams, and per page
 * tp = Σ min(truth, prediction), fp = prediction's excess, fn = truth's excess, normalised so every page weighs
 * the same. Precision and recall are averaged over pages; F1 is the harmonic mean of the two averages.
 */
/** What Python's Unicode `\w` matches (letters, numbers, underscore); JavaScript's `\w` is ASCII-only even with /u. */
const WORD = /[\p{L}\p{N}_]+/gu;
const N = 4;

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Word 4-gram shingles with their counts; a text shorter than four words is one shingle of what it has. */
export function shingles(text: string): Map<string, number> {
  const words = text.match(WORD) ?? [];
  const counts = new Map<string, number>();
  if (words.length === 0) return counts;
  const last = Math.max(1, words.length - N + 1);
  for (let i = 0; i < last; i++) {
    const key = words.slice(i, i + N).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function scorePage(truth: string, prediction: string): PageScore {
  const t = shingles(truth);
  const p = shingles(prediction);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, count] of p) {
    const inTruth = t.get(key) ?? 0;
    tp += Math.min(count, inTruth);
    fp += Math.max(0, count - inTruth);
  }
  for (const [key, count] of t) fn += Math.max(0, count - (p.get(key) ?? 0));
  const total = tp + fp + fn;
  if (total === 0) return { tp: 0, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1 };
  const [ntp, nfp, nfn] = [tp / total, fp / total, fn / total];
  // Nothing predicted is precise but recalls nothing; nothing true is fully recalled (this reproduces the README's
  // published baseline, where the page jsdom cannot parse counts as precision 1, recall 0).
  const precision = ntp + nfp === 0 ? 1 : ntp / (ntp + nfp);
  const recall = ntp + nfn === 0 ? 1 : ntp / (ntp + nfn);
  return { tp: ntp, fp: nfp, fn: nfn, precision, recall, f1: harmonic(precision, recall) };
}

export interface Summary {
  precision: number;
  recall: number;
  f1: number;
}

/** Averages precision and recall over pages, then takes their harmonic mean. */
export function summarise(scores: PageScore[]): Summary {
  const precision = scores.reduce((s, x) => s + x.precision, 0) / scores.length;
  const recall = scores.reduce((s, x) => s + x.recall, 0) / scores.length;
  return { precision, recall, f1: harmonic(precision, recall) };
}

function harmonic(a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * a * b) / (a + b);
}
