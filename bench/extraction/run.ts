// bench/extraction: article extraction quality and speed on the dev set (/work/shared/bench-data/extraction).
//   (1) baseline: plain @mozilla/readability over jsdom, `textContent` of `parse()`;
//   (2) Folio: htmlToText(extractArticle(...).contentHtml), the text output's body, scored as is and with the
//       title line first, the way Folio's `text` output prints it (the README allows a headline line).
// Both run in one process on the same pages, interleaved page by page (order alternating) over several rounds,
// so machine load hits both alike. Quality: word 4-gram shingles, per-page P/R averaged, F1 of the averages
// (metric.ts). Time: per page the median over rounds; then median and p95 over pages.
// Cross-validation: the pages fall in two halves by site (dataset.ts, halfOf); quality is reported on half A, half B
// and all pages, for Folio's text output with the title line first and for the baseline, so that a rule tuned on
// one half can be judged on the other.
// The results table is written into docs/benchmarks.md between the bench:extraction markers, stamped with the
// date, the commit and whether the tree had uncommitted changes, by bench/docs-section.ts as every benchmark.
// Also: one dev-set article with twelve inline data: images (≈2.4 MB of base64), where jsdom's parsing of data:
// addresses dominates plain Readability's time and Folio stashes them behind placeholders.
// Run: npm run bench:extraction   (env: BENCH_ROUNDS=3, BENCH_SHOW=<id prefix>: that page's text, docs left alone)
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { extractArticle, htmlToText, NoArticleError } from '@folio/extraction';
import { type BenchPage, type Half, loadPages } from './dataset.ts';
import { type PageScore, scorePage, summarise } from './metric.ts';
import { runStamp, writeSection } from '../docs-section.ts';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SHOW = process.env.BENCH_SHOW;

interface Run {
  text: string;
  /** The text output as Folio prints it: title line, blank line, body. */
  titled: string;
  error: string | null;
}

function baseline(page: BenchPage): Run {
  try {
    // A silent console, as in Folio: only the work is measured, not jsdom's printing of CSS errors.
    const dom = new JSDOM(page.html, { url: page.url, virtualConsole: new VirtualConsole() });
    const text = new Readability(dom.window.document).parse()?.textContent ?? '';
    return { text, titled: text, error: null };
  } catch (error) {
    return { text: '', titled: '', error: String(error).slice(0, 80) };
  }
}

function folio(page: BenchPage): Run {
  try {
    const article = extractArticle(page.html, { url: page.url });
    const body = htmlToText(article.contentHtml);
    return { text: body, titled: article.title ? `${article.title}\n\n${body}` : body, error: null };
  } catch (error) {
    return { text: '', titled: '', error: error instanceof NoArticleError ? 'no article' : String(error).slice(0, 80) };
  }
}

function timed(fn: (page: BenchPage) => Run, page: BenchPage): [Run, number] {
  const start = performance.now();
  const run = fn(page);
  return [run, performance.now() - start];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const log = (line: string) => process.stderr.write(`${line}\n`);

const pages = loadPages().filter((p) => !SHOW || p.id.startsWith(SHOW));
log(`${pages.length} pages, ${ROUNDS} timed round(s) after a warm-up pass`);

// Warm-up: JIT and module caches, for both alike.
for (const page of pages.slice(0, 10)) {
  baseline(page);
  folio(page);
}

const results = pages.map(() => ({ base: null as Run | null, ours: null as Run | null, baseMs: [] as number[], oursMs: [] as number[] }));
for (let round = 0; round < ROUNDS; round++) {
  pages.forEach((page, i) => {
    const r = results[i]!;
    const oursFirst = (i + round) % 2 === 0;
    const first = timed(oursFirst ? folio : baseline, page);
    const second = timed(oursFirst ? baseline : folio, page);
    const [ours, base] = oursFirst ? [first, second] : [second, first];
    r.ours = ours[0];
    r.base = base[0];
    r.oursMs.push(ours[1]);
    r.baseMs.push(base[1]);
  });
  log(`round ${round + 1}/${ROUNDS} done`);
}

const baseScores: PageScore[] = [];
const oursScores: PageScore[] = [];
const titledScores: PageScore[] = [];
const rows = pages.map((page, i) => {
  const r = results[i]!;
  const base = scorePage(page.truth, r.base!.text);
  const ours = scorePage(page.truth, r.ours!.text);
  baseScores.push(base);
  oursScores.push(ours);
  const titled = scorePage(page.truth, r.ours!.titled);
  titledScores.push(titled);
  return { page, base, ours, titled, r, baseMs: median(r.baseMs), oursMs: median(r.oursMs) };
});

const b = summarise(baseScores);
const o = summarise(oursScores);
const baseTimes = rows.map((x) => x.baseMs);
const oursTimes = rows.map((x) => x.oursMs);
const f = (n: number) => n.toFixed(3);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const empty = (k: 'base' | 'ours') => rows.filter((x) => x.r[k]!.text.trim() === '').length;

/** Quality of the text output (title line first) and of the baseline on the pages of one half, or all. */
const halves: [string, (half: Half) => boolean][] = [['half A', (h) => h === 'A'], ['half B', (h) => h === 'B'], ['all', () => true]];
const quality = halves.map(([label, keep]) => {
  const at = pages.map((page, i) => (keep(page.half) ? i : -1)).filter((i) => i >= 0);
  return { label, n: at.length, ours: summarise(at.map((i) => titledScores[i]!)), base: summarise(at.map((i) => baseScores[i]!)) };
});

const out: string[] = [];
out.push('| pages | n | Folio text output: precision | recall | F1 | Readability baseline: precision | recall | F1 |');
out.push('|---|---|---|---|---|---|---|---|');
for (const q of quality) {
  out.push(`| ${q.label} | ${q.n} | ${f(q.ours.precision)} | ${f(q.ours.recall)} | **${f(q.ours.f1)}** | ${f(q.base.precision)} | ${f(q.base.recall)} | ${f(q.base.f1)} |`);
}
out.push('');
out.push('| all pages | F1 | precision | recall | median / page | p95 / page | empty pages |');
out.push('|---|---|---|---|---|---|---|');
out.push(`| Readability + jsdom (\`textContent\`), baseline | ${f(b.f1)} | ${f(b.precision)} | ${f(b.recall)} | ${ms(median(baseTimes))} | ${ms(percentile(baseTimes, 95))} | ${empty('base')} |`);
out.push(`| Folio \`htmlToText(extractArticle(…).contentHtml)\`, body only | ${f(o.f1)} | ${f(o.precision)} | ${f(o.recall)} | ${ms(median(oursTimes))} | ${ms(percentile(oursTimes, 95))} | ${empty('ours')} |`);
out.push('');
out.push(`Time ratio Folio / baseline: median ${(median(oursTimes) / median(baseTimes)).toFixed(2)}×, ` +
  `p95 ${(percentile(oursTimes, 95) / percentile(baseTimes, 95)).toFixed(2)}×, ` +
  `total ${(oursTimes.reduce((a, c) => a + c, 0) / baseTimes.reduce((a, c) => a + c, 0)).toFixed(2)}×.`);
out.push('');
out.push('Worst pages for the text output by F1:');
out.push('');
out.push('| page | half | F1 | precision | recall | baseline F1 | url |');
out.push('|---|---|---|---|---|---|---|');
for (const x of [...rows].sort((p, q) => p.titled.f1 - q.titled.f1).slice(0, 5)) {
  out.push(`| ${x.page.id.slice(0, 8)} | ${x.page.half} | ${f(x.titled.f1)} | ${f(x.titled.precision)} | ${f(x.titled.recall)} | ${f(x.base.f1)} | ${x.page.url} |`);
}
const failed = rows.filter((x) => x.r.ours!.text.trim() === '' || x.r.base!.text.trim() === '');
out.push('');
if (failed.length) {
  out.push('Pages with empty output:');
  out.push('');
  for (const x of failed) {
    out.push(`- ${x.page.id.slice(0, 8)} baseline: ${x.r.base!.error ?? (x.r.base!.text.trim() ? 'ok' : 'empty')}; ` +
      `Folio: ${x.r.ours!.error ?? (x.r.ours!.text.trim() ? 'ok' : 'empty')} (${x.page.url})`);
  }
} else {
  out.push('No page came out empty for Folio or the baseline.');
}
// A page heavy with inline images: the data: stash at work.
if (!SHOW) {
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
    baseMs.push(timed(baseline, heavy)[1]);
    oursMs.push(timed(folio, heavy)[1]);
  }
  const kept = extractArticle(heavy.html, { url: heavy.url }).contentHtml.split(image).length - 1;
  out.push('');
  out.push(`Data-heavy page (${(heavy.html.length / 1e6).toFixed(1)} MB, 12 inline data: images; median of 7): ` +
    `baseline ${ms(median(baseMs))}, Folio ${ms(median(oursMs))}; images kept intact in contentHtml: ${kept}/12.`);
}

const body = `${runStamp()}, ${pages.length} pages, ${ROUNDS} timed round(s); quality of the \`text\` output with its title line first, as Folio prints it:

${out.join('\n')}`;
// BENCH_SHOW looks at one page: the figures are printed, docs left alone.
if (SHOW) process.stdout.write(`\n${body}\n`);
else writeSection('extraction', 'bench/extraction/run.ts', body);

if (SHOW) for (const x of rows) console.log(`\n----- ${x.page.id}\n${x.r.ours!.text}`);
