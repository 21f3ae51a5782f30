// bench/render: html→pdf throughput and latency, raw puppeteer against Folio's PdfRenderer, in one run, on the same
// articles (≈1,500 and ≈8,000 words, three 800×450 JPEG images each on a local server), at concurrency 1, 2 and 4.
//   raw:    one warm headless-shell browser, one reused page per worker, setContent + pdf, nothing in the way.
//   engine: PdfRenderer (default 4 warm pages): JavaScript off, request interception, every image fetched through
//           the in-process egress proxy (127.0.0.1 allowlisted as the stand-in for the public web).
// Both print with the same options (the engine's: page size, margins, footer with page numbers).
// The two paths run in alternating slices (BENCH_SLICES, default 8) so that other load on the machine hits both alike.
// Run: node --import tsx bench/render/run.ts   (BENCH_SECONDS per path and cell, default 8; BENCH_WARMUP renders, default 10)
import puppeteer, { type Page } from 'puppeteer-core';
import { defaultExecutablePath, PdfRenderer, printOptions } from '@folio/pdf';
import { articlePage } from './articles.ts';
import { startImageServer } from './image-server.ts';
import { launchPlainChromium, makePhotos } from './photos.ts';
import { percentile } from '../stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const SLICES = Number(process.env.BENCH_SLICES ?? 8);
const CONCURRENCY = [1, 2, 4];
const log = (line: string) => process.stderr.write(`${line}\n`);

type Render = (worker: number) => Promise<Buffer>;

interface Cell {
  docsPerSecond: number;
  p50: number;
  p95: number;
  count: number;
  bytes: number;
}

/** Renders with `workers` loops for `ms` milliseconds, timing each document. */
async function slice(workers: number, ms: number, render: Render, into: { latencies: number[]; seconds: number; bytes: number }): Promise<void> {
  const t0 = performance.now();
  const until = t0 + ms;
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    while (performance.now() < until) {
      const start = performance.now();
      const pdf = await render(w);
      into.latencies.push(performance.now() - start);
      into.bytes = pdf.length;
    }
  }));
  into.seconds += (performance.now() - t0) / 1000;
}

/**
 * Both paths at `workers` concurrency, in alternating slices (SLICES each, SECONDS in all per path), so that load from
 * other processes on the machine falls on both alike rather than on whichever ran when it peaked.
 */
async function compare(workers: number, paths: [Render, Render]): Promise<[Cell, Cell]> {
  for (const render of paths) {
    await Promise.all(Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; i < Math.ceil(WARMUP / workers); i++) await render(w);
    }));
  }
  const totals = paths.map(() => ({ latencies: [] as number[], seconds: 0, bytes: 0 }));
  for (let i = 0; i < SLICES; i++) {
    for (const [p, render] of paths.entries()) await slice(workers, (SECONDS * 1000) / SLICES, render, totals[p]!);
  }
  const cell = (t: (typeof totals)[number]): Cell => ({
    docsPerSecond: t.latencies.length / t.seconds,
    p50: percentile(t.latencies, 50),
    p95: percentile(t.latencies, 95),
    count: t.latencies.length,
    bytes: t.bytes,
  });
  return [cell(totals[0]!), cell(totals[1]!)];
}

const executablePath = defaultExecutablePath();
// Raw: plain puppeteer on the same binary, with its default flags (the engine's own flags are part of what is measured).
const raw = await launchPlainChromium(executablePath);
const photos = await makePhotos(raw, 3);
const images = await startImageServer(photos);
log(`browser: ${executablePath}; images on ${images.origin}: ${photos.map((p) => `${(p.length / 1024).toFixed(0)} KiB`).join(', ')} JPEG, not cacheable`);
const rawPages: Page[] = await Promise.all(Array.from({ length: Math.max(...CONCURRENCY) }, () => raw.newPage()));
const engine = new PdfRenderer({ executablePath, allowPrivateHosts: ['127.0.0.1'] });
await engine.start();

const articles = [
  { name: '1,500 words', html: articlePage(1500, images.origin) },
  { name: '8,000 words', html: articlePage(8000, images.origin) },
];

const rows: string[] = [];
const summary: string[] = [];
try {
  for (const article of articles) {
    const best = { raw: 0, engine: 0, rawAt: 0, engineAt: 0 };
    for (const c of CONCURRENCY) {
      const [r, e] = await compare(c, [
        async (w) => {
          const page = rawPages[w]!;
          await page.setContent(article.html, { waitUntil: 'load' });
          return Buffer.from(await page.pdf(printOptions('letter', 30_000)));
        },
        () => engine.render(article.html, { pageSize: 'letter' }),
      ]);
      for (const [name, cell] of [['raw puppeteer', r], ['PdfRenderer', e]] as const) {
        const line = `| ${article.name} | ${name} | ${c} | ${cell.docsPerSecond.toFixed(1)} | ${cell.p50.toFixed(0)} ms | ${cell.p95.toFixed(0)} ms | ${cell.count} | ${(cell.bytes / 1024).toFixed(0)} KiB |`;
        rows.push(line);
        log(line);
      }
      if (r.docsPerSecond > best.raw) Object.assign(best, { raw: r.docsPerSecond, rawAt: c });
      if (e.docsPerSecond > best.engine) Object.assign(best, { engine: e.docsPerSecond, engineAt: c });
    }
    summary.push(`- ${article.name}: engine best ${best.engine.toFixed(1)}/s (c=${best.engineAt}) vs raw best ${best.raw.toFixed(1)}/s (c=${best.rawAt}): ` +
      `**${(best.engine / best.raw).toFixed(2)}×** (target ≥ 0.90×)`);
  }
} finally {
  await engine.close();
  await raw.close();
  await images.stop();
}

console.log(`\nhtml→pdf, ${SECONDS} s per path and cell in ${SLICES} alternating slices after ${WARMUP} warm-up renders, letter, 3 JPEG images per article (${executablePath})\n`);
console.log('| article | path | concurrency | documents/s | p50 | p95 | documents | pdf size |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\n${summary.join('\n')}`);
