// bench/render/end-to-end: the engine as the renderer runs it, from a page address to a finished document, each beside
// a baseline in alternating slices of the same run:
//   url→pdf      fetch (through the private-network rule) → extract → sanitise → page (worker threads) → print;
//                baseline: print-only, the same PdfRenderer printing the very page url→pdf prints (the browser's share)
//   url→markdown fetch → extract → sanitise → turndown (worker threads);
//                baseline: the plain libraries in this thread (fetch, Readability over jsdom, turndown with GFM;
//                no sanitising, no worker threads)
// plus single-document times of markdown→html and html→docx through the worker pool, beside the same `prepare` in
// this thread. The article pages (~1,500 words, three 800×450 JPEGs) and their images are served on 127.0.0.1
// (allowlisted as the stand-in for the public web), never cached, each request a new address.
// Run: npm run bench:end-to-end  (BENCH_SECONDS per path, default 10, in BENCH_SLICES slices, default 4;
// BENCH_CONCURRENCY, default 4; writes its section of docs/benchmarks.md). Besides documents/s it prints the CPU time
// each document cost, in this process and in Chromium: on two cores, 20 documents/s leaves 100 ms of CPU a document.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import TurndownService from 'turndown';
import { ConversionPool, prepare, print, type ConversionRequest } from '@folio/conversion';
import { DEFAULT_OPTIONS } from '@folio/events';
import { defaultExecutablePath, PdfRenderer } from '@folio/pdf';
import { sampleArticle } from '../pipeline/markdown.ts';
import { articlePage } from './articles.ts';
import { startImageServer } from './image-server.ts';
import { launchPlainChromium, makePhotos } from './photos.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';
import { alternate, type Measured } from '../slices.ts';
import { percentile } from '../stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
/** No slower than the last recorded runs. */
const TARGETS = { pdf: 23, markdown: 62 };
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
const address = () => `${origin}/news/2024/story-${n++}`;
const request = (output: 'pdf' | 'markdown'): ConversionRequest => ({ input: { kind: 'url', text: address() }, output, options: DEFAULT_OPTIONS });

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' }).use(gfm);
const quiet = new VirtualConsole();
/** What a page→Markdown service made of the plain libraries would do, in one thread. */
async function plainMarkdown(): Promise<string> {
  const url = address();
  const html = await (await fetch(url)).text();
  const dom = new JSDOM(html, { url, virtualConsole: quiet });
  try {
    const article = new Readability(dom.window.document).parse();
    return turndown.turndown(article?.content ?? '');
  } finally {
    dom.window.close();
  }
}

const options = { workers: CONCURRENCY, seconds: SECONDS, slices: SLICES, warmup: 8 };
const cpu = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '–');
const row = (label: string, m: Measured, chromium: boolean) =>
  `| ${label} | ${m.perSecond.toFixed(1)} | ${m.p50.toFixed(0)} ms | ${m.p95.toFixed(0)} ms | ${cpu(m.nodeCpuMs)} | ${chromium ? cpu(m.chromiumCpuMs) : '–'} |`;

/** Sequential single-document times (after 5 warm ones), the pool's and this thread's interleaved. */
async function single(label: string, conversion: ConversionRequest): Promise<string> {
  const paths = [() => pool.prepare(conversion), () => prepare(conversion)];
  const times = paths.map(() => [] as number[]);
  for (let i = 0; i < 5; i++) for (const path of paths) await path();
  for (let i = 0; i < 30; i++) {
    for (const [p, path] of paths.entries()) {
      const start = performance.now();
      await path();
      times[p]!.push(performance.now() - start);
    }
  }
  const [inPool, inThread] = times.map((t) => `${percentile(t, 50).toFixed(1)} / ${percentile(t, 95).toFixed(1)} ms`);
  return `| ${label} | ${inThread} | ${inPool} |`;
}

try {
  const printable = await pool.prepare(request('pdf'));
  if (printable.kind !== 'print') throw new Error('expected a printable page');
  const [printOnly, urlPdf] = await alternate([
    () => print(printable, pdf),
    async () => {
      const prepared = await pool.prepare(request('pdf'));
      if (prepared.kind !== 'print') throw new Error('expected a printable page');
      await print(prepared, pdf);
    },
  ], options);
  log(`url→pdf ${urlPdf!.perSecond.toFixed(1)}/s, print-only ${printOnly!.perSecond.toFixed(1)}/s`);
  const [plain, urlMarkdown] = await alternate([plainMarkdown, () => pool.prepare(request('markdown'))], options);
  log(`url→markdown ${urlMarkdown!.perSecond.toFixed(1)}/s, plain libraries ${plain!.perSecond.toFixed(1)}/s`);

  const markdown = sampleArticle(1500);
  const json = (await pool.prepare({ input: { kind: 'markdown', text: markdown }, output: 'json', options: DEFAULT_OPTIONS })) as { content: string };
  const contentHtml = JSON.parse(json.content).content_html as string;
  const singles = [
    await single('markdown→html (1,500 words)', { input: { kind: 'markdown', text: markdown }, output: 'html', options: DEFAULT_OPTIONS }),
    await single('html→docx (1,500 words)', { input: { kind: 'html', text: contentHtml }, output: 'docx', options: DEFAULT_OPTIONS }),
  ];

  writeSection('render-end-to-end', 'bench/render/end-to-end.ts', `${runStamp()}: ~1,500-word article with three 800×450 JPEGs, ${CONCURRENCY} in flight, ${SECONDS} s each path in ${SLICES} alternating slices.

| path | documents/s | p50 | p95 | CPU/doc, Node (all threads, incl. the bench's servers) | CPU/doc, Chromium |
|---|---|---|---|---|---|
${row('print-only: PdfRenderer on the page url→pdf prints (baseline)', printOnly!, true)}
${row('url→pdf', urlPdf!, true)}
${row('plain libraries in this thread: fetch, Readability over jsdom, turndown (baseline)', plain!, false)}
${row('url→markdown', urlMarkdown!, false)}

| one document, p50 / p95 | \`prepare\` in this thread (baseline) | through the worker pool |
|---|---|---|
${singles.join('\n')}

Targets, no slower than the last recorded runs: url→pdf ≥ ${TARGETS.pdf} documents/s — ${verdict(urlPdf!.perSecond >= TARGETS.pdf)} (${((urlPdf!.perSecond / printOnly!.perSecond) * 100).toFixed(0)} % of print-only); url→markdown ≥ ${TARGETS.markdown} documents/s — ${verdict(urlMarkdown!.perSecond >= TARGETS.markdown)} (${(urlMarkdown!.perSecond / plain!.perSecond).toFixed(2)}× the plain libraries).`);
} finally {
  await pool.close();
  await pdf.close();
  await images.stop();
  site.close();
}
