// bench/extraction/reference: Folio beside rs-trafilatura, the extractor with the best published figure on WCXB, on
// the same pages, with the same metrics and the same convention (title line, blank line, main text), per kind and
// per cross-validation fold. rs-trafilatura is a Rust crate (crates.io, pinned by reference/Cargo.lock), built here
// with cargo into the cache (FOLIO_CACHE_DIR) and fed every page's HTML from files; Folio runs in this process.
// Its page-type classifier was trained on WCXB's development split, which is this dev set: on WCXB its figures are
// in-sample, and its authors report 0.859 here against 0.893 on the held-out test split.
// Run: npm run bench:extraction-reference  (needs cargo; writes its section of docs/benchmarks.md)
//   env: BENCH_SAMPLE=n every n-th WCXB page only (docs left alone).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheDir } from '../../infra/services/cache.ts';
import { runStamp, writeSection } from '../docs-section.ts';
import { mean, median } from '../stats.ts';
import { loadPages } from './dataset.ts';
import { DEFAULT_FOLDS, foldOf } from './folds.ts';
import { type PageScore, scorePage, summarise } from './metric.ts';
import { folioRun, nextTurn, titledText } from './runs.ts';
import { KINDS, loadWcxb, scoreWcxb } from './wcxb.ts';

const SAMPLE = Math.max(1, Number(process.env.BENCH_SAMPLE ?? 1));
const CRATE = resolve(import.meta.dirname, 'reference');
const log = (line: string) => process.stderr.write(`${line}\n`);
const f = (n: number) => n.toFixed(3);

/** What the reference extractor printed for a page. */
interface ReferenceRun {
  id: string;
  title: string;
  text: string;
  ms: number;
  error?: string;
}

function buildReference(): string {
  const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
  if (cargo.status !== 0) throw new Error('bench:extraction-reference needs cargo (Rust\'s toolchain) on PATH');
  const target = join(cacheDir(), 'extraction-reference-target');
  log(`building rs-trafilatura (${cargo.stdout.trim()}) into ${target}`);
  execFileSync('cargo', ['build', '--release', '--locked', '--quiet', '--manifest-path', join(CRATE, 'Cargo.toml')], {
    env: { ...process.env, CARGO_TARGET_DIR: target },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return join(target, 'release', 'folio-extraction-reference');
}

/** Runs the reference extractor over pages written to files (the decompressed dev sets do not fit one pipe). */
function runReference(binary: string, pages: Array<{ key: string; url: string | null; html: string }>): Map<string, ReferenceRun> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-reference-'));
  try {
    const manifest = pages.map((page, i) => {
      const path = join(dir, `${i}.html`);
      writeFileSync(path, page.html);
      return `${page.key}\t${page.url ?? ''}\t${path}`;
    });
    const output = execFileSync(binary, [], { input: `${manifest.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 30 });
    const runs = new Map<string, ReferenceRun>();
    for (const line of output.split('\n')) if (line.trim()) {
      const run = JSON.parse(line) as ReferenceRun;
      runs.set(run.id, run);
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const binary = buildReference();
const articles = loadPages();
const wcxb = loadWcxb().filter((_, i) => i % SAMPLE === 0);
log(`rs-trafilatura: ${articles.length} article pages and ${wcxb.length} WCXB pages`);
const reference = runReference(binary, [
  ...articles.map((p) => ({ key: `a${p.id}`, url: p.url, html: p.html })),
  ...wcxb.map((p) => ({ key: `w${p.id}`, url: p.url, html: p.html() })),
]);
const referenceOf = (key: string): ReferenceRun => reference.get(key) ?? { id: key, title: '', text: '', ms: 0, error: 'no output' };

log('Folio on the same pages');
interface Row { kind: string; fold: number; folio: number; ref: number; refBody: number; folioMs: number; refMs: number }
const rows: Row[] = [];
const articleScores = { folio: [] as PageScore[], ref: [] as PageScore[], refBody: [] as PageScore[] };
const articleFolds: Array<{ fold: number; folio: number; ref: number }> = [];
for (const page of articles) {
  await nextTurn();
  const run = folioRun(page);
  const ref = referenceOf(`a${page.id}`);
  const scores = [scorePage(page.truth, run.titled), scorePage(page.truth, titledText(ref.title, ref.text)), scorePage(page.truth, ref.text)] as const;
  articleScores.folio.push(scores[0]);
  articleScores.ref.push(scores[1]);
  articleScores.refBody.push(scores[2]);
  articleFolds.push({ fold: foldOf(page.url, DEFAULT_FOLDS), folio: scores[0].f1, ref: scores[1].f1 });
}
for (const [i, page] of wcxb.entries()) {
  await nextTurn();
  const html = page.html();
  const start = performance.now();
  const run = folioRun({ html, url: page.url });
  const folioMs = performance.now() - start;
  const ref = referenceOf(`w${page.id}`);
  rows.push({
    kind: page.kind,
    fold: foldOf(page.domain, DEFAULT_FOLDS),
    folio: scoreWcxb(page, run.titled).f1,
    ref: scoreWcxb(page, titledText(ref.title, ref.text)).f1,
    refBody: scoreWcxb(page, ref.text).f1,
    folioMs,
    refMs: ref.ms,
  });
  if ((i + 1) % 250 === 0) log(`  ${i + 1}/${wcxb.length}`);
}

// ---------------------------------------------------------------- the section
const out: string[] = [];
const a = { folio: summarise(articleScores.folio), ref: summarise(articleScores.ref), refBody: summarise(articleScores.refBody) };
out.push(`${runStamp()}, rs-trafilatura 0.2.2 (Rust ${execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1]}):`);
out.push('');
out.push('| set or kind | pages | Folio F1 | rs-trafilatura F1, title line first | its main text alone | Folio better / worse (pages, by > 0.01) | Folio − rs-trafilatura, fold 0 / 1 / 2 / 3 / 4 |');
out.push('|---|---|---|---|---|---|---|');
const foldDiffs = (items: Array<{ fold: number; folio: number; ref: number }>) =>
  Array.from({ length: DEFAULT_FOLDS }, (_, k) => {
    const inFold = items.filter((x) => x.fold === k);
    return inFold.length ? signed(mean(inFold.map((x) => x.folio - x.ref))) : '–';
  }).join(' / ');
const tally = (items: Array<{ folio: number; ref: number }>) =>
  `${items.filter((x) => x.folio > x.ref + 0.01).length} / ${items.filter((x) => x.folio < x.ref - 0.01).length}`;
/** The two F1s, the higher in bold. */
const pair = (folio: number, ref: number) => (folio >= ref ? [`**${f(folio)}**`, f(ref)] : [f(folio), `**${f(ref)}**`]).join(' | ');
out.push(`| article set (4-gram shingles) | ${articles.length} | ${pair(a.folio.f1, a.ref.f1)} | ${f(a.refBody.f1)} | ${tally(articleFolds)} | ${foldDiffs(articleFolds)} |`);
const kindRow = (label: string, items: Row[]) =>
  `| ${label} | ${items.length} | ${pair(mean(items.map((x) => x.folio)), mean(items.map((x) => x.ref)))} | ${f(mean(items.map((x) => x.refBody)))} | ${tally(items)} | ${foldDiffs(items)} |`;
out.push(kindRow('WCXB dev, all kinds (word multisets)', rows));
for (const kind of KINDS) {
  const items = rows.filter((x) => x.kind === kind);
  if (items.length) out.push(kindRow(`WCXB ${kind}`, items));
}
out.push('');
out.push(`Time a WCXB page, median (each in its own language, one page at a time): Folio ${median(rows.map((x) => x.folioMs)).toFixed(1)} ms, rs-trafilatura ${median(rows.map((x) => x.refMs)).toFixed(1)} ms.`);
const failed = [...reference.values()].filter((r) => r.error).length;
if (failed) out.push(`rs-trafilatura failed on ${failed} page(s) (scored empty).`);

function signed(n: number): string {
  return `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;
}

if (SAMPLE === 1) writeSection('extraction-reference', 'bench/extraction/reference.ts', out.join('\n'));
else process.stdout.write(`\n${out.join('\n')}\n`);
