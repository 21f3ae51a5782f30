// bench/render/end-to-end: the engine as the renderer runs it, from a page address to a finished document:
//   url→pdf      fetch (through the private-network rule) → extract → sanitise → page (worker threads) → print
//   url→markdown fetch → extract → sanitise → turndown (worker threads)
// plus single-document times of markdown→html and html→docx. The article pages (~1,500 words, three 800×450 JPEGs)
// and their images are served on 127.0.0.1 (allowlisted as the stand-in for the public web), never cached, each
// request a new address. Run: node --import tsx bench/render/end-to-end.ts  (BENCH_SECONDS per cell, default 10;
// BENCH_CONCURRENCY, default 4). Besides documents/s it prints the CPU time each document cost, in this process and in
// Chromium: on two cores, 20 documents/s leaves 100 ms of CPU a document for everything.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConversionPool, print, type ConversionRequest } from '@folio/conversion';
import { DEFAULT_OPTIONS } from '@folio/events';
import { defaultExecutablePath, PdfRenderer } from '@folio/pdf';
import { sampleArticle } from '../pipeline/markdown.ts';
import { articlePage } from './articles.ts';
import { chromiumCpuSeconds, processCpuSeconds } from './cpu.ts';
import { startImageServer } from './image-server.ts';
import { launchPlainChromium, makePhotos } from './photos.ts';
import { percentile } from '../stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const log = (line: string) => process.stderr.write(`${line}\n`);

const executablePath = defaultExecutablePath();
const browser = await launchPlainChromium(executablePath);
const images = await startImageServer(await makePhotos(browser, 3));
await browser.close();
const page = articlePage(1500, images.origin);
const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const pool = new ConversionPool({ allowPrivateHosts: ['127.0.0.1'] });
const pdf = new PdfRenderer({ executablePath, allowPrivateHosts: ['127.0.0.1'] });
await Promise.all([pool.ready(), pdf.start()]);

let n = 0;
const request = (output: 'pdf' | 'markdown'): ConversionRequest => ({
  input: { kind: 'url', text: `${origin}/news/2024/story-${n++}` },
  output,
  options: DEFAULT_OPTIONS,
});

async function run(label: string, once: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 8; i++) await once(); // warm
  const latencies: number[] = [];
  const cpu0 = { node: processCpuSeconds(), chromium: chromiumCpuSeconds() };
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await once();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const rate = latencies.length / ((performance.now() - t0) / 1000);
  const perDoc = (seconds: number) => `${((seconds * 1000) / latencies.length).toFixed(1)} ms`;
  const node = perDoc(processCpuSeconds() - cpu0.node);
  const chromium = perDoc(chromiumCpuSeconds() - cpu0.chromium);
  log(`${label}: ${rate.toFixed(1)} docs/s (CPU per document: Node ${node}, Chromium ${chromium})`);
  return `| ${label} | ${rate.toFixed(1)} | ${percentile(latencies, 50).toFixed(0)} ms | ${percentile(latencies, 95).toFixed(0)} ms | ${node} | ${chromium} |`;
}

async function single(label: string, once: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  return `| ${label} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 95).toFixed(1)} ms |`;
}

try {
  const rows = [
    await run('url→pdf', async () => {
      const prepared = await pool.prepare(request('pdf'));
      if (prepared.kind !== 'print') throw new Error('expected a printable page');
      await print(prepared, pdf);
    }),
    await run('url→markdown', () => pool.prepare(request('markdown'))),
  ];
  const markdown = sampleArticle(1500);
  const html = (await pool.prepare({ input: { kind: 'markdown', text: markdown }, output: 'json', options: DEFAULT_OPTIONS })) as { content: string };
  const contentHtml = JSON.parse(html.content).content_html as string;
  const singles = [
    await single('markdown→html (1,500 words)', () => pool.prepare({ input: { kind: 'markdown', text: markdown }, output: 'html', options: DEFAULT_OPTIONS })),
    await single('html→docx (1,500 words)', () => pool.prepare({ input: { kind: 'html', text: contentHtml }, output: 'docx', options: DEFAULT_OPTIONS })),
  ];
  process.stdout.write(`
## bench/render/end-to-end — ${new Date().toISOString().slice(0, 10)}, ~1,500-word article with three 800×450 JPEGs, concurrency ${CONCURRENCY}

| path | documents/s | p50 | p95 | CPU/doc, Node (all threads, incl. the bench's servers) | CPU/doc, Chromium |
|---|---|---|---|---|---|
${rows.join('\n')}

| one document, through the worker pool | p50 | p95 |
|---|---|---|
${singles.join('\n')}

Targets: url→pdf ≥ 20 documents/s; url→markdown ≥ 35 documents/s.
`);
} finally {
  await pool.close();
  await pdf.close();
  await images.stop();
  site.close();
}
