// bench/extraction: extraction quality on both dev sets, cross-validated by domain, and speed against Readability.
//   Article set (/work/shared/bench-data/extraction, 91 pages): word 4-gram shingles, per-page P/R averaged, F1 of
//   the averages (metric.ts). WCXB dev (/work/shared/bench-data/wcxb, 1,497 pages of seven kinds): its README's
//   word-multiset P/R/F1 per page, mean over pages, overall and per kind, with the share of `with` snippets found and
//   of `without` snippets present (wcxb.ts); a refused page (NoArticleError, Folio's parse_failed) scores 0.
//   Folio is scored on its `text` output's content: title line, blank line, htmlToText(extractArticle(…).contentHtml).
// Cross-validation: both sets' pages fall into k folds by registrable domain (folds.ts); each fold's figure is
// printed with the mean and spread over folds. Rules are tuned looking at the pages of the tuning folds only
// (BENCH_TUNE_FOLDS, default 0,1,2) and kept only if they help the other folds too, on both sets.
// Speed: on the article set, plain @mozilla/readability over jsdom (`textContent` of `parse()`) and Folio run in one
// process, interleaved page by page (order alternating) over several rounds, so machine load hits both alike
// (per page the median over rounds; then median and p95 over pages). WCXB pages are converted once, timed too.
// Also: one dev-set article with twelve inline data: images (≈2.4 MB of base64), where jsdom's parsing of data:
// addresses dominates plain Readability's time and Folio stashes them behind placeholders. And large pages built of
// many like blocks (large-pages.ts), each at n and 2n blocks: the time's growth shows a step quadratic in the page.
// The results are written into docs/benchmarks.md between the bench:extraction markers, stamped by
// bench/docs-section.ts as every benchmark.
// Run: npm run bench:extraction
//   env: BENCH_ROUNDS=3 (timed rounds on the article set);
//        BENCH_QUICK=1 quality only: Folio once per page, no baseline, docs left alone;
//        BENCH_SETS=articles,wcxb (either or both; docs only written with both);
//        BENCH_SAMPLE=n: every n-th WCXB page only, for quick iterations (docs left alone);
//        BENCH_FOLDS=5; BENCH_TUNE_FOLDS=0,1,2;
//        BENCH_SAVE=<file> keeps per-page scores, BENCH_COMPARE=<file> prints the change from such a file per fold;
//        BENCH_WORST=<kind|articles> lists the worst pages of that kind in the tuning folds;
//        BENCH_SHOW=<id prefix>: that page's text, docs left alone;
//        BENCH_LARGE_BLOCKS=2000: blocks of the smaller large built page (large-pages.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { type BenchPage, loadPages } from './dataset.ts';
import { DEFAULT_FOLDS, foldOf } from './folds.ts';
import { measureGrowth } from './large-pages.ts';
import { extractArticle } from '@folio/extraction';
import { folioRun as folio, nextTurn, readabilityRun as baseline, type Run } from './runs.ts';
import { type PageScore, scorePage, summarise } from './metric.ts';
import { KINDS, loadWcxb, scoreWcxb, summariseWcxb, type WcxbPage, type WcxbScore, type WcxbSummary } from './wcxb.ts';
import { runStamp, writeSection } from '../docs-section.ts';
import { mean, median } from '../stats.ts';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SHOW = process.env.BENCH_SHOW;
const QUICK = process.env.BENCH_QUICK === '1';
const SETS = new Set((process.env.BENCH_SETS ?? 'articles,wcxb').split(',').map((s) => s.trim()));
const FOLDS = Math.max(2, Number(process.env.BENCH_FOLDS ?? DEFAULT_FOLDS));
const TUNE_FOLDS = new Set((process.env.BENCH_TUNE_FOLDS ?? '0,1,2').split(',').map(Number));
const WORST = process.env.BENCH_WORST;
/** Every n-th WCXB page only (quick iterations; the full set decides). */
const SAMPLE = Math.max(1, Number(process.env.BENCH_SAMPLE ?? 1));
/** Blocks of the smaller large built page (large-pages.ts); the larger has twice as many. */
const LARGE_BLOCKS = Math.max(100, Number(process.env.BENCH_LARGE_BLOCKS ?? 2000));

function timed<P>(fn: (page: P) => Run, page: P): [Run, number] {
  const start = performance.now();
  const run = fn(page);
  return [run, performance.now() - start];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const sd = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, c) => a + (c - m) ** 2, 0) / Math.max(1, values.length - 1));
};
const log = (line: string) => process.stderr.write(`${line}\n`);
const f = (n: number) => n.toFixed(3);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;
const spread = (values: number[]) =>
  `${f(mean(values))} ± ${f(sd(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;

const out: string[] = [];

// ---------------------------------------------------------------- article set
interface ArticleRow {
  page: BenchPage;
  fold: number;
  base: PageScore | null;
  titled: PageScore;
  ours: PageScore;
  run: Run;
  baseRun: Run | null;
  baseMs: number;
  oursMs: number;
}
let articleRows: ArticleRow[] = [];
let articleTimes: { base: number[]; ours: number[] } | null = null;

if (SETS.has('articles')) {
  const pages = loadPages().filter((p) => !SHOW || p.id.startsWith(SHOW));
  const withBaseline = !QUICK;
  const rounds = QUICK ? 1 : ROUNDS;
  log(`articles: ${pages.length} pages, ${rounds} round(s)${withBaseline ? ' with the baseline, after a warm-up pass' : ', Folio only'}`);
  if (withBaseline) {
    for (const page of pages.slice(0, 10)) {
      baseline(page);
      folio(page);
    }
  }
  const results = pages.map(() => ({ ours: null as Run | null, base: null as Run | null, oursMs: [] as number[], baseMs: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, page] of pages.entries()) {
      await nextTurn();
      const r = results[i]!;
      if (!withBaseline) {
        const [run, time] = timed(folio, page);
        r.ours = run;
        r.oursMs.push(time);
        continue;
      }
      const oursFirst = (i + round) % 2 === 0;
      const first = timed(oursFirst ? folio : baseline, page);
      const second = timed(oursFirst ? baseline : folio, page);
      const [ours, base] = oursFirst ? [first, second] : [second, first];
      r.ours = ours[0];
      r.base = base[0];
      r.oursMs.push(ours[1]);
      r.baseMs.push(base[1]);
    }
    log(`round ${round + 1}/${rounds} done`);
  }
  articleRows = pages.map((page, i) => {
    const r = results[i]!;
    return {
      page,
      fold: foldOf(page.url, FOLDS),
      base: r.base ? scorePage(page.truth, r.base.text) : null,
      titled: scorePage(page.truth, r.ours!.titled),
      ours: scorePage(page.truth, r.ours!.text),
      run: r.ours!,
      baseRun: r.base,
      baseMs: r.baseMs.length ? median(r.baseMs) : 0,
      oursMs: median(r.oursMs),
    };
  });
  if (withBaseline) articleTimes = { base: articleRows.map((x) => x.baseMs), ours: articleRows.map((x) => x.oursMs) };

  const all = summarise(articleRows.map((x) => x.titled));
  out.push(`**Article set** (${pages.length} pages, 4-gram shingle metric; Folio's text output, title line first):`);
  out.push('');
  out.push('| | precision | recall | F1 |');
  out.push('|---|---|---|---|');
  out.push(`| Folio text output | ${f(all.precision)} | ${f(all.recall)} | **${f(all.f1)}** |`);
  if (withBaseline) {
    const o = summarise(articleRows.map((x) => x.ours));
    const b = summarise(articleRows.map((x) => x.base!));
    out.push(`| Folio body only | ${f(o.precision)} | ${f(o.recall)} | ${f(o.f1)} |`);
    out.push(`| Readability + jsdom (\`textContent\`), baseline | ${f(b.precision)} | ${f(b.recall)} | ${f(b.f1)} |`);
  }
  out.push('');
}

// ---------------------------------------------------------------- WCXB dev
interface WcxbRow {
  page: WcxbPage;
  fold: number;
  score: WcxbScore;
  run: Run;
  ms: number;
}
let wcxbRows: WcxbRow[] = [];

if (SETS.has('wcxb')) {
  const pages = loadWcxb().filter((p, i) => (!SHOW || p.id.startsWith(SHOW)) && i % SAMPLE === 0);
  log(`wcxb: ${pages.length} pages, converted once each`);
  for (const [i, page] of pages.entries()) {
    await nextTurn();
    // Decompressed outside the timing, and let go of once scored.
    const [run, time] = timed(folio, { html: page.html(), url: page.url });
    if ((i + 1) % 250 === 0) log(`  ${i + 1}/${pages.length}`);
    wcxbRows.push({ page, fold: foldOf(page.domain, FOLDS), score: scoreWcxb(page, run.titled), run, ms: time });
  }
  const row = (label: string, s: WcxbSummary, refused: number) =>
    `| ${label} | ${s.n} | ${f(s.precision)} | ${f(s.recall)} | **${f(s.f1)}** | ${f(s.withRate)} | ${f(s.withoutRate)} | ${refused} |`;
  const refusedOf = (rows: WcxbRow[]) => rows.filter((x) => x.run.error !== null).length;
  out.push(`**WCXB dev** (${pages.length} pages, word-multiset metric per page, mean over pages; Folio's text output, title line first; a refused page scores 0):`);
  out.push('');
  out.push('| kind | pages | precision | recall | F1 | `with` found | `without` present | refused |');
  out.push('|---|---|---|---|---|---|---|---|');
  out.push(row('all', summariseWcxb(wcxbRows.map((x) => x.score)), refusedOf(wcxbRows)));
  for (const kind of KINDS) {
    const rows = wcxbRows.filter((x) => x.page.kind === kind);
    if (rows.length) out.push(row(kind, summariseWcxb(rows.map((x) => x.score)), refusedOf(rows)));
  }
  out.push('');
  const refused = wcxbRows.filter((x) => x.run.error !== null);
  if (refused.length) {
    out.push(`Refused or failed: ${refused.map((x) => `${x.page.id} (${x.page.kind}, ${x.run.error})`).join(', ')}.`);
    out.push('');
  }
}

// ---------------------------------------------------------------- folds
{
  const folds = Array.from({ length: FOLDS }, (_, i) => i);
  const articleF1 = folds.map((k) => {
    const rows = articleRows.filter((x) => x.fold === k);
    return { n: rows.length, f1: rows.length ? summarise(rows.map((x) => x.titled)).f1 : NaN };
  });
  const wcxbF1 = folds.map((k) => {
    const rows = wcxbRows.filter((x) => x.fold === k);
    return { n: rows.length, s: summariseWcxb(rows.map((x) => x.score)) };
  });
  out.push(`**Cross-validation by domain** (${FOLDS} folds over both sets by registrable domain, \`bench/extraction/folds.ts\`; ` +
    `rules are tuned on folds ${[...TUNE_FOLDS].join(', ')} and judged on the others; mean ± standard deviation (min–max) over folds):`);
  out.push('');
  const header = ['figure', ...folds.map((k) => `fold ${k}${TUNE_FOLDS.has(k) ? '' : ' (held out)'}`), 'mean ± sd (min–max)'];
  out.push(`| ${header.join(' | ')} |`);
  out.push(`|${header.map(() => '---').join('|')}|`);
  if (articleRows.length) {
    out.push(`| article set F1 (pages) | ${articleF1.map((x) => `${f(x.f1)} (${x.n})`).join(' | ')} | ${spread(articleF1.map((x) => x.f1))} |`);
  }
  if (wcxbRows.length) {
    out.push(`| WCXB F1, all kinds (pages) | ${wcxbF1.map((x) => `${f(x.s.f1)} (${x.n})`).join(' | ')} | ${spread(wcxbF1.map((x) => x.s.f1))} |`);
    for (const kind of KINDS) {
      const per = folds.map((k) => {
        const rows = wcxbRows.filter((x) => x.fold === k && x.page.kind === kind);
        return { n: rows.length, f1: summariseWcxb(rows.map((x) => x.score)).f1 };
      });
      if (per.every((x) => x.n === 0)) continue;
      const present = per.filter((x) => x.n > 0).map((x) => x.f1);
      out.push(`| WCXB ${kind} | ${per.map((x) => (x.n ? `${f(x.f1)} (${x.n})` : '–')).join(' | ')} | ${spread(present)} |`);
    }
  }
  out.push('');
}

// ---------------------------------------------------------------- speed
if (articleTimes) {
  const { base, ours } = articleTimes;
  out.push(`**Speed** (article set, ${ROUNDS} interleaved round(s); per page the median over rounds):`);
  out.push('');
  out.push('| | median / page | p95 / page | empty pages |');
  out.push('|---|---|---|---|');
  out.push(`| Readability + jsdom (\`textContent\`), baseline | ${ms(median(base))} | ${ms(percentile(base, 95))} | ${articleRows.filter((x) => x.baseRun!.text.trim() === '').length} |`);
  out.push(`| Folio \`extractArticle\` + \`htmlToText\` | ${ms(median(ours))} | ${ms(percentile(ours, 95))} | ${articleRows.filter((x) => x.run.text.trim() === '').length} |`);
  out.push('');
  out.push(`Time ratio Folio / baseline: median ${(median(ours) / median(base)).toFixed(2)}×, ` +
    `p95 ${(percentile(ours, 95) / percentile(base, 95)).toFixed(2)}×, ` +
    `total ${(ours.reduce((a, c) => a + c, 0) / base.reduce((a, c) => a + c, 0)).toFixed(2)}×.`);
  if (wcxbRows.length) {
    const times = wcxbRows.map((x) => x.ms);
    out.push(`WCXB dev, Folio once per page: median ${ms(median(times))}, p95 ${ms(percentile(times, 95))}, mean ${ms(mean(times))}.`);
  }
  out.push('');
  const failed = articleRows.filter((x) => x.run.text.trim() === '' || x.baseRun!.text.trim() === '');
  if (failed.length) {
    out.push('Article pages with empty output:');
    out.push('');
    for (const x of failed) {
      out.push(`- ${x.page.id.slice(0, 8)} baseline: ${x.baseRun!.error ?? (x.baseRun!.text.trim() ? 'ok' : 'empty')}; ` +
        `Folio: ${x.run.error ?? (x.run.text.trim() ? 'ok' : 'empty')} (${x.page.url})`);
    }
    out.push('');
  }
  // A page heavy with inline images: the data: stash at work.
  if (!SHOW && articleRows.length) {
    const pages = articleRows.map((x) => x.page);
    const source = pages.find((p) => p.html.length > 100_000 && p.html.length < 200_000) ?? pages[0]!;
    const image = `data:image/jpeg;base64,${Buffer.alloc(150_000, 7).toString('base64')}`;
    const figures = Array.from({ length: 12 }, (_, i) => `<p><img src="${image}" alt="figure ${i}"></p>`).join('');
    // After the first paragraph of real prose, so that the images sit inside the article.
    const prose = /<p\b[^>]*>[^<]{200,}<\/p>/.exec(source.html);
    const at = prose ? prose.index + prose[0].length : source.html.indexOf('</body>');
    const heavy: BenchPage = { ...source, html: source.html.slice(0, at) + figures + source.html.slice(at) };
    const baseMs: number[] = [];
    const oursMs: number[] = [];
    for (let i = 0; i < 7; i++) {
      await nextTurn();
      baseMs.push(timed(baseline, heavy)[1]);
      oursMs.push(timed(folio, heavy)[1]);
    }
    const kept = extractArticle(heavy.html, { url: heavy.url }).contentHtml.split(image).length - 1;
    out.push(`Data-heavy page (${(heavy.html.length / 1e6).toFixed(1)} MB, 12 inline data: images; median of 7): ` +
      `baseline ${ms(median(baseMs))}, Folio ${ms(median(oursMs))}; images kept intact in contentHtml: ${kept}/12.`);
    out.push('');
    // Pages of many like blocks side by side, where a step that grows with the square of the page shows (large-pages.ts).
    const growth = await measureGrowth(LARGE_BLOCKS, nextTurn);
    out.push(`Large built pages, Folio once each at ${LARGE_BLOCKS.toLocaleString('en-US')} and ${(2 * LARGE_BLOCKS).toLocaleString('en-US')} blocks ` +
      '(growth 2× is linear in the page, 4× quadratic):');
    out.push('');
    out.push(`| page of | size at ${(2 * LARGE_BLOCKS).toLocaleString('en-US')} | time at ${LARGE_BLOCKS.toLocaleString('en-US')} | at ${(2 * LARGE_BLOCKS).toLocaleString('en-US')} | growth | kept |`);
    out.push('|---|---|---|---|---|---|');
    for (const g of growth) {
      out.push(`| ${g.name} | ${(g.bytes / 1e6).toFixed(2)} MB | ${ms(g.ms[0])} | ${ms(g.ms[1])} | ${(g.ms[1] / g.ms[0]).toFixed(1)}× | ${g.outcome} |`);
    }
    out.push('');
  }
}

// ---------------------------------------------------------------- worst pages (tuning folds only)
if (articleRows.length && !QUICK) {
  out.push('Worst article-set pages of the tuning folds, by F1 of the text output:');
  out.push('');
  out.push('| page | fold | F1 | precision | recall | baseline F1 | url |');
  out.push('|---|---|---|---|---|---|---|');
  for (const x of articleRows.filter((r) => TUNE_FOLDS.has(r.fold)).sort((p, q) => p.titled.f1 - q.titled.f1).slice(0, 5)) {
    out.push(`| ${x.page.id.slice(0, 8)} | ${x.fold} | ${f(x.titled.f1)} | ${f(x.titled.precision)} | ${f(x.titled.recall)} | ${x.base ? f(x.base.f1) : '–'} | ${x.page.url} |`);
  }
  out.push('');
}

const body = `${runStamp()}${QUICK ? ', quality only' : `, ${ROUNDS} timed round(s)`}:

${out.join('\n')}`;
const writeDocs = !SHOW && !QUICK && SAMPLE === 1 && SETS.has('articles') && SETS.has('wcxb');
if (writeDocs) writeSection('extraction', 'bench/extraction/run.ts', body);
else process.stdout.write(`\n${body}\n`);

if (WORST) {
  const lines: string[] = [];
  if (WORST === 'articles') {
    for (const x of articleRows.filter((r) => TUNE_FOLDS.has(r.fold)).sort((p, q) => p.titled.f1 - q.titled.f1).slice(0, 15)) {
      lines.push(`${x.page.id} fold ${x.fold} F1 ${f(x.titled.f1)} P ${f(x.titled.precision)} R ${f(x.titled.recall)} ${x.page.url}`);
    }
  } else {
    for (const x of wcxbRows.filter((r) => TUNE_FOLDS.has(r.fold) && r.page.kind === WORST).sort((p, q) => p.score.f1 - q.score.f1).slice(0, 20)) {
      lines.push(`${x.page.id} fold ${x.fold} F1 ${f(x.score.f1)} P ${f(x.score.precision)} R ${f(x.score.recall)} ${x.run.error ?? ''} ${x.page.url}`);
    }
  }
  process.stdout.write(`\nWorst ${WORST} pages of the tuning folds:\n${lines.join('\n')}\n`);
}

// Per-page scores, to compare a change with the code before it, fold by fold.
interface Saved {
  articles: Record<string, { fold: number; f1: number; p: number; r: number }>;
  wcxb: Record<string, { fold: number; kind: string; f1: number }>;
}
const saved: Saved = {
  articles: Object.fromEntries(articleRows.map((x) => [x.page.id, { fold: x.fold, f1: x.titled.f1, p: x.titled.precision, r: x.titled.recall }])),
  wcxb: Object.fromEntries(wcxbRows.map((x) => [x.page.id, { fold: x.fold, kind: x.page.kind, f1: x.score.f1 }])),
};
if (process.env.BENCH_SAVE) writeFileSync(process.env.BENCH_SAVE, JSON.stringify(saved));
if (process.env.BENCH_COMPARE) {
  const before = JSON.parse(readFileSync(process.env.BENCH_COMPARE, 'utf8')) as Saved;
  const lines: string[] = ['', `Change from ${process.env.BENCH_COMPARE}, per fold (tuning folds: ${[...TUNE_FOLDS].join(',')}):`];
  for (let k = 0; k < FOLDS; k++) {
    const arts = articleRows.filter((x) => x.fold === k && before.articles[x.page.id]);
    const artBefore = arts.length ? harmonicOfMeans(arts.map((x) => before.articles[x.page.id]!)) : NaN;
    const artAfter = arts.length ? summarise(arts.map((x) => x.titled)).f1 : NaN;
    const w = wcxbRows.filter((x) => x.fold === k && before.wcxb[x.page.id]);
    const wBefore = mean(w.map((x) => before.wcxb[x.page.id]!.f1));
    const wAfter = mean(w.map((x) => x.score.f1));
    const kinds = KINDS.map((kind) => {
      const rows = w.filter((x) => x.page.kind === kind);
      return `${kind.slice(0, 4)} ${signed(mean(rows.map((x) => x.score.f1)) - mean(rows.map((x) => before.wcxb[x.page.id]!.f1)))}`;
    }).join(' ');
    lines.push(`fold ${k}${TUNE_FOLDS.has(k) ? ' (tune)' : ' (held) '}: articles ${f(artAfter)} ${signed(artAfter - artBefore)} | wcxb ${f(wAfter)} ${signed(wAfter - wBefore)} | ${kinds}`);
  }
  const changes = wcxbRows.filter((x) => before.wcxb[x.page.id]).map((x) => ({ x, d: x.score.f1 - before.wcxb[x.page.id]!.f1 }))
    .filter((c) => Math.abs(c.d) > 0.001);
  lines.push(`wcxb pages changed: ${changes.filter((c) => c.d > 0).length} better, ${changes.filter((c) => c.d < 0).length} worse`);
  // The pages that lost most, then those that gained most.
  const worse = changes.filter((c) => c.d < 0).sort((a, b) => a.d - b.d).slice(0, 8);
  const better = changes.filter((c) => c.d > 0).sort((a, b) => b.d - a.d).slice(0, 5);
  for (const c of [...worse, ...better]) {
    lines.push(`  ${c.d < 0 ? 'worse' : 'better'} ${c.x.page.id} fold ${c.x.fold} ${c.x.page.kind} ${signed(c.d)} → ${f(c.x.score.f1)}`);
  }
  const arts = articleRows.filter((x) => before.articles[x.page.id]).map((x) => ({ x, d: x.titled.f1 - before.articles[x.page.id]!.f1 }))
    .filter((c) => Math.abs(c.d) > 0.001);
  lines.push(`article pages changed: ${arts.filter((c) => c.d > 0).length} better, ${arts.filter((c) => c.d < 0).length} worse`);
  for (const c of arts.sort((a, b) => a.d - b.d).slice(0, 5)) lines.push(`  ${c.x.page.id.slice(0, 8)} fold ${c.x.fold} ${signed(c.d)} → ${f(c.x.titled.f1)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function harmonicOfMeans(scores: { p: number; r: number }[]): number {
  const p = mean(scores.map((s) => s.p));
  const r = mean(scores.map((s) => s.r));
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

if (SHOW) {
  for (const x of articleRows) console.log(`\n----- ${x.page.id}\n${x.run.titled}`);
  for (const x of wcxbRows) console.log(`\n----- ${x.page.id} (${x.page.kind}) F1 ${f(x.score.f1)}\n${x.run.titled}`);
}
