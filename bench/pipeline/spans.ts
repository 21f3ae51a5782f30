// Where the time of a sync call goes, from the traces every app exports: finer than bench/pipeline/probe.ts, whose
// marks are the events' own timestamps in whole milliseconds. Every app of one stack exports its spans (OTLP/HTTP
// JSON) to a sink in this process; after warm-up, sync calls are made in turn; each span of a call is placed by its
// start relative to the call's request span and by its duration.
// Run: node bench/pipeline/spans.ts   (BENCH_OUTPUT: the calls' output, html by default, no file downloaded;
// BENCH_WARMUP, BENCH_CALLS: the calls before and during the measure)
//
// A span started without a time of its own (the API's request, the renderer's run, the projector's step) takes its
// start from Date.now() in OpenTelemetry's SDK: whole milliseconds, cut down, so on average half a millisecond before
// the moment it stands for; its duration is timed finely. So each start is printed as a mean over the calls (the
// middle 80 %), which averages the rounding's spread out, and durations as medians. A span recorded with the fine
// times its process measured (the renderer's `convert`, from the worker's timeline) has no such lag while the request
// span it is placed against has: it is moved half a millisecond earlier, and the table says which rows were. Tracing
// itself costs ~0.3 ms of a call's latency (bench/tracing).
import { BENCH_PORTS } from '../ports.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';
import { keptAliveClient, keyedJson } from '../http-client.ts';
import { mean, median } from '../stats.ts';

const WARM = Number(process.env.BENCH_WARMUP ?? 1000);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const OUTPUT = process.env.BENCH_OUTPUT ?? 'html';

interface ExportedSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  service: string;
}

/** The spans of one OTLP/HTTP JSON export, with the service each came from; null when the body is not that JSON. */
function spansOf(body: Buffer): ExportedSpan[] | null {
  let parsed: {
    resourceSpans?: Array<{ resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans?: Array<{ spans?: ExportedSpan[] }> }>;
  };
  try {
    parsed = JSON.parse(body.toString()) as typeof parsed;
  } catch {
    return null;
  }
  const found: ExportedSpan[] = [];
  for (const resource of parsed.resourceSpans ?? []) {
    const service = resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
    for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) found.push({ ...span, service });
  }
  return found;
}

/** The collector stand-in: keeps the spans exported while `keeping` is set. */
const spans: ExportedSpan[] = [];
let keeping = false;
/** Exports that were not OTLP JSON (an exporter that ignored OTEL_EXPORTER_OTLP_PROTOCOL): the run fails on them. */
let unreadable = 0;
const sink = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (keeping) {
      const exported = spansOf(Buffer.concat(chunks));
      if (exported) spans.push(...exported);
      else unreadable++;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const ms = (ns: bigint) => Number(ns) / 1e6;
/** Whether a span's start is a whole millisecond: the SDK took it from Date.now(), cut down. */
const wholeMs = (span: ExportedSpan) => BigInt(span.startTimeUnixNano) % 1_000_000n === 0n;
/** What a start cut down to the millisecond lags, on average, behind one timed finely. */
const CUT_LAG_MS = 0.5;
/** The mean of the middle 80 % of `xs`. */
const middleMean = (xs: number[]) => mean([...xs].sort((a, b) => a - b).slice(Math.floor(xs.length * 0.1), Math.ceil(xs.length * 0.9)));

const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: () => {} });
try {
  const stack = await Stack.start({
    infra: infra.env,
    env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT_SCALE: '1000', OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '500' },
  });
  const client = keptAliveClient(2);
  try {
    const key = await stack.createKey('paid');
    const body = Buffer.from(JSON.stringify({ markdown: sampleArticle(1500), output: OUTPUT }));
    const latencies: number[] = [];
    /** When the measured calls began: spans of warm-up calls exported late are left out by their trace's start. */
    let from = 0n;
    for (let n = 0; n < WARM + CALLS; n++) {
      if (n === WARM) {
        keeping = true;
        from = BigInt(Date.now()) * 1_000_000n;
      }
      const t0 = performance.now();
      const answer = await client.call('POST', `${stack.url}/v2/convert`, keyedJson(key), body);
      if (answer.status !== 200) throw new Error(`convert failed: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
      if (n >= WARM) latencies.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 2000)); // the last batches of spans leave within the export delay
    keeping = false;
    if (unreadable > 0) throw new Error(`${unreadable} trace exports were not OTLP JSON: the exporter did not take OTEL_EXPORTER_OTLP_PROTOCOL=http/json`);

    // Each call's spans, placed against its root (the API's request span); a name seen twice in a trace is numbered.
    const traces = new Map<string, ExportedSpan[]>();
    for (const span of spans) {
      const trace = traces.get(span.traceId);
      if (trace) trace.push(span);
      else traces.set(span.traceId, [span]);
    }
    const placed = new Map<string, { starts: number[]; durations: number[]; moved: number }>();
    for (const trace of traces.values()) {
      const root = trace.find((s) => !s.parentSpanId);
      if (!root || BigInt(root.startTimeUnixNano) < from) continue;
      const origin = BigInt(root.startTimeUnixNano);
      // Against a root cut down to the millisecond, a finely timed start stands CUT_LAG_MS later than it was.
      const lag = wholeMs(root) ? CUT_LAG_MS : 0;
      const seen = new Map<string, number>();
      for (const span of trace.sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))) {
        const name = `${span.service}: ${span.name}`;
        const nth = (seen.get(name) ?? 0) + 1;
        seen.set(name, nth);
        const key = nth > 1 ? `${name} (${nth})` : name;
        const row = placed.get(key) ?? { starts: [], durations: [], moved: 0 };
        const fine = !wholeMs(span);
        if (fine && lag > 0) row.moved++;
        row.starts.push(ms(BigInt(span.startTimeUnixNano) - origin) - (fine ? lag : 0));
        row.durations.push(ms(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)));
        placed.set(key, row);
      }
    }
    console.log(`${CALLS} sync markdown→${OUTPUT} calls in turn after ${WARM} to warm, every app tracing: client p50 ${median(latencies).toFixed(2)} ms.`);
    console.log('| span | start (mean, ms after the request) | duration (median) | ends | calls |\n|---|---|---|---|---|');
    const rows = [...placed].map(([name, r]) => ({ name, start: middleMean(r.starts), duration: median(r.durations), count: r.starts.length, moved: r.moved }));
    for (const r of rows.sort((a, b) => a.start - b.start)) {
      const note = r.moved === 0 ? '' : ` (timed finely: ${r.moved === r.count ? 'moved' : `${r.moved} moved`} ${CUT_LAG_MS} ms earlier)`;
      console.log(`| ${r.name}${note} | ${r.start.toFixed(2)} | ${r.duration.toFixed(2)} | ${(r.start + r.duration).toFixed(2)} | ${r.count} |`);
    }
  } finally {
    client.close();
    await stack.stop();
  }
} finally {
  await infra.stop();
  sink.close();
}
