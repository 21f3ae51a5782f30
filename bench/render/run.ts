// bench/render: html→pdf throughput and latency, raw puppeteer against Folio's PdfRenderer, in one run, on the same
// articles (≈1,500 and ≈8,000 words, three 800×450 JPEG images each on a local server), at concurrency 1, 2 and 4.
//   raw:    one warm headless-shell browser, one reused page per worker, setContent + pdf, nothing in the way.
//   engine: PdfRenderer (default 4 warm pages): JavaScript off, request interception, every image fetched through
//           the in-process egress proxy (127.0.0.1 allowlisted as the stand-in for the public web).
// Both print with the same options (the engine's: page size, margins, footer with page numbers).
// The two paths run in alternating slices (BENCH_SLICES, default 8) so that other load on the machine hits both alike.
// Run: npm run bench:render   (BENCH_SECONDS per path and cell, default 8; BENCH_WARMUP renders, default 10; writes
// its section of docs/benchmarks.md)
import type { Page } from 'puppeteer-core';
import { defaultExecutablePath, PdfRenderer, printOptions } from '@folio/pdf';
import { articlePage } from './articles.ts';
import { startImageServer } from './image-server.ts';
import { launchPlainChromium, makePhotos } from './photos.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';
import { alternate, type Measured } from '../slices.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const SLICES = Number(process.env.BENCH_SLICES ?? 8);
const CONCURRENCY = [1, 2, 4];
/** The engine's best rate, at whichever concurrency, against raw puppeteer's best. */
const TARGET_RATIO = 0.9;
const log = (line: string) => process.stderr.write(`${line}\n`);

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

const cell = (m: Measured) => `${m.perSecond.toFixed(1)} | ${m.p50.toFixed(0)} / ${m.p95.toFixed(0)} ms`;
const rows: string[] = [];
const verdicts: string[] = [];
try {
  for (const article of articles) {
    let bytes = 0;
    const best = { raw: 0, engine: 0, rawAt: 0, engineAt: 0 };
    for (const c of CONCURRENCY) {
      const [r, e] = await alternate([
        async (w) => {
          const page = rawPages[w]!;
          await page.setContent(article.html, { waitUntil: 'load' });
          bytes = (await page.pdf(printOptions('letter', 30_000))).length;
        },
        () => engine.render(article.html, { pageSize: 'letter' }),
      ], { workers: c, seconds: SECONDS, slices: SLICES, warmup: WARMUP });
      const row = `| ${article.name} | ${c} | ${cell(r!)} | ${cell(e!)} | ${(e!.perSecond / r!.perSecond).toFixed(2)}× |`;
      rows.push(row);
      log(row);
      if (r!.perSecond > best.raw) Object.assign(best, { raw: r!.perSecond, rawAt: c });
      if (e!.perSecond > best.engine) Object.assign(best, { engine: e!.perSecond, engineAt: c });
    }
    const ratio = best.engine / best.raw;
    verdicts.push(`- ${article.name} (raw puppeteer's PDF is ${(bytes / 1024).toFixed(0)} KiB): engine best ${best.engine.toFixed(1)}/s (c=${best.engineAt}) ` +
      `against raw best ${best.raw.toFixed(1)}/s (c=${best.rawAt}): ${ratio.toFixed(2)}× — ${verdict(ratio >= TARGET_RATIO)}`);
  }
} finally {
  await engine.close();
  await raw.close();
  await images.stop();
}

writeSection('render', 'bench/render/run.ts', `${runStamp()}: ${SECONDS} s per path and cell in ${SLICES} alternating slices after ${WARMUP} warm-up renders, letter, 3 JPEG images per article, \`${executablePath}\`.

| article | concurrency | raw puppeteer (baseline): documents/s | p50 / p95 | engine: documents/s | p50 / p95 | engine ÷ raw |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Target: the engine ≥ ${TARGET_RATIO.toFixed(1)}× raw puppeteer, each at its best concurrency:
${verdicts.join('\n')}`);
