// bench/pdf-service: supplied HTML → pdf through the running service, beside the engine's print-only rate, in one run.
//   service:    POST /v2/convert {html, output: "pdf"} (sync) and the download of its file_url, BENCH_CONCURRENCY
//               requests in flight (default 4): HTTP, Kafka, the renderer (sanitise, article page, print), storage,
//               the projector, the answer, the file.
//   print-only: PdfRenderer.render of the very article page the engine prints for that input, in this process, the
//               same number in flight: the browser's share alone.
// The article is ~1,500 words (bench/pipeline's), as the HTML Folio's Markdown parser makes of it, no images. The two paths run in
// alternating slices (BENCH_SLICES, default 6, of BENCH_SECONDS / slices each) so other load hits both alike.
// Run: npm run bench:pdf-service  (starts its own services under .folio/bench; writes its section of docs/benchmarks.md)
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { prepare, markdownToHtml } from '@folio/conversion';
import { DEFAULT_OPTIONS } from '@folio/events';
import { PdfRenderer } from '@folio/pdf';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from '../pipeline/markdown.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';
import { cpuTable } from '../process-cpu.ts';
import { alternate, type Measured } from '../slices.ts';
import { keptAliveClient, keyedJson } from '../http-client.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SLICES = Number(process.env.BENCH_SLICES ?? 6);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 600);
const log = (line: string) => process.stderr.write(`${line}\n`);

const html = markdownToHtml(sampleArticle(1500));

const client = keptAliveClient(CONCURRENCY * 2);
const call = client.call;

const infra = await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: (line) => log(`[infra] ${line}`),
});
let stack: Stack | null = null;
const pdf = new PdfRenderer();
try {
  stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT_SCALE: '1000' } });
  const key = await stack.createKey('paid');
  await pdf.start();
  const printable = await prepare({ input: { kind: 'html', text: html }, output: 'pdf', options: DEFAULT_OPTIONS });
  if (printable.kind !== 'print') throw new Error('expected a printable page');

  let bytes = 0;
  const convert = Buffer.from(JSON.stringify({ html, output: 'pdf' }));
  const service = async () => {
    const answer = await call('POST', `${stack!.url}/v2/convert`, keyedJson(key), convert);
    if (answer.status !== 200) throw new Error(`convert failed: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
    const file = await call('GET', (JSON.parse(answer.body.toString()) as { file_url: string }).file_url);
    if (file.status !== 200) throw new Error(`download failed: ${file.status}`);
    bytes = file.body.byteLength;
  };
  const printOnly = async () => {
    await pdf.render(printable.html, { pageSize: printable.pageSize });
  };

  // Warmed first (the stack's browser and workers, this process's browser), then in alternating slices. The
  // service's CPU by process is its slices' alone: the print-only slices (this process's own browser) are left out.
  // The warm-up is long enough for the JVMs to have compiled their request paths: a broker started moments ago spends
  // a third of its CPU in its JIT compiler threads for the first minute or so (measured), which a production broker
  // has long done.
  const [service_, print_] = (await alternate([service, printOnly], { workers: CONCURRENCY, seconds: SECONDS, slices: SLICES, warmup: WARMUP })) as [Measured, Measured];
  log(`service ${service_.perSecond.toFixed(1)}/s p50 ${service_.p50.toFixed(0)} ms; print-only ${print_.perSecond.toFixed(1)}/s p50 ${print_.p50.toFixed(0)} ms`);
  writeSection('pdf-service', 'bench/pdf-service/run.ts', `${runStamp()}: ~1,500-word article as supplied HTML (no images), ${CONCURRENCY} in flight, ${SECONDS} s each in ${SLICES} alternating slices; the PDF is ${(bytes / 1024).toFixed(0)} KiB.

| path | documents/s | p50 | p95 |
|---|---|---|---|
| print-only: the engine's PdfRenderer on the same article page, in process (baseline) | ${print_.perSecond.toFixed(1)} | ${print_.p50.toFixed(0)} ms | ${print_.p95.toFixed(0)} ms |
| through Folio: sync POST /v2/convert, then the download of file_url | ${service_.perSecond.toFixed(1)} | ${service_.p50.toFixed(0)} ms | ${service_.p95.toFixed(0)} ms |

Targets: through the service ≥ 85 % of the print-only rate of this run (issue #20) — ${((service_.perSecond / print_.perSecond) * 100).toFixed(0)} %, ${verdict(service_.perSecond >= 0.85 * print_.perSecond)}; ≥ 20 documents/s (the first target, in absolute terms on a machine whose speed swings 2–3× between hours) — ${verdict(service_.perSecond >= 20)}.

Where a document's CPU went through the service (every process this benchmark started, over the service's slices; "benchmark" is the load generator with its downloads):

${cpuTable(service_.cpu, service_.count, 'document')}

And print-only's, over its slices ("benchmark" is the process driving its browser; the stack idles beside it):

${cpuTable(print_.cpu, print_.count, 'document')}`);
} finally {
  client.close();
  await pdf.close().catch(() => {});
  await stack?.stop();
  await infra.stop();
}
