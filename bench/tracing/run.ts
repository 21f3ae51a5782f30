// bench/tracing: what exporting a trace for every job costs, against the same stack exporting none, in one run.
//   Each round starts a stack (one renderer) without OTEL_EXPORTER_OTLP_ENDPOINT, or with it pointing at an OTLP/HTTP
//   sink in this process (the exporter's default protocol, http/protobuf; the sink reads and drops what it gets); the
//   rounds go off, on, on, off, so a drift of the machine's speed falls on both alike. In each: sync markdown→html
//   calls through the stack (p50, p95), then async markdown→text jobs through the API (32 in flight) with the CPU
//   every process spent from the first request to the last success, a job.
// Run: npm run bench:tracing  (starts its own services under .folio/bench; writes its section of docs/benchmarks.md)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { BENCH_PORTS } from '../ports.ts';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from '../pipeline/markdown.ts';
import { submitAsyncTextJobs } from '../pipeline/drain.ts';
import { percentile } from '../stats.ts';
import { addCpu, cpuSnapshot, cpuSpent, cpuTable, type CpuSnapshot } from '../process-cpu.ts';
import { runStamp, writeSection } from '../docs-section.ts';

const SYNC_REQUESTS = Number(process.env.BENCH_SYNC_REQUESTS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const ASYNC_JOBS = Number(process.env.BENCH_ASYNC_JOBS ?? 600);
const IN_FLIGHT = 32;
const ROUNDS: Array<'off' | 'on'> = ['off', 'on', 'on', 'off'];

const ms = (n: number) => `${n.toFixed(1)} ms`;
const signed = (n: number) => `${n < 0 ? '−' : '+'}${ms(Math.abs(n))}`;
const log = (line: string) => process.stderr.write(`${line}\n`);

// The collector stand-in: takes every export, keeps only the count of bytes (its own CPU is the benchmark's).
let exported = 0;
const sink = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (exported += chunk.length));
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: (line) => log(`[infra] ${line}`) });

interface Round {
  sync: number[];
  cpu: CpuSnapshot;
  exportedBytes: number;
}

try {
  const markdown = sampleArticle(1500);
  const results: Record<'off' | 'on', Round[]> = { off: [], on: [] };
  const rounds: Array<{ mode: 'off' | 'on'; p50: number; perJob: number }> = [];
  for (const [i, mode] of ROUNDS.entries()) {
    const env: Record<string, string> = { FOLIO_LOG_LEVEL: 'warn' };
    if (mode === 'on') Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_BSP_SCHEDULE_DELAY: '1000' });
    const stack = await Stack.start({ infra: infra.env, env });
    try {
      const key = await stack.createKey('paid');
      const sync: number[] = [];
      for (let n = 0; n < WARMUP + SYNC_REQUESTS; n++) {
        const t0 = performance.now();
        const r = await stack.request('POST', '/v2/convert', { key, json: { markdown, output: 'html', title: 'Bench' } });
        if (r.status !== 200) throw new Error(`sync request failed: ${r.status} ${r.text.slice(0, 200)}`);
        if (n >= WARMUP) sync.push(performance.now() - t0);
      }
      const since = new Date().toISOString();
      const exportedBefore = exported;
      const cpuBefore = cpuSnapshot();
      await submitAsyncTextJobs(stack, key, (n) => `${markdown}\n\nJob ${n}.`, ASYNC_JOBS, IN_FLIGHT);
      await stack.until(async () => {
        const [{ done }] = (await stack.sql`select count(*)::int as done from jobs where created_at >= ${since} and status = 'succeeded'`) as unknown as [{ done: number }];
        return done >= ASYNC_JOBS;
      }, 600_000, 'the async jobs');
      const cpu = cpuSpent(cpuBefore, cpuSnapshot());
      // The last jobs' spans leave within the export delay: waited for, so that their bytes are counted (the CPU of
      // that last export falls after the measurement: one batch of many).
      await new Promise((r) => setTimeout(r, 1500));
      results[mode].push({ sync, cpu, exportedBytes: exported - exportedBefore });
      const all = [...cpu.values()].reduce((a, b) => a + b, 0);
      rounds.push({ mode, p50: percentile(sync, 50), perJob: all / ASYNC_JOBS });
      log(`round ${i + 1} (tracing ${mode}): sync p50 ${ms(percentile(sync, 50))}, CPU a job ${ms(all / ASYNC_JOBS)}`);
    } finally {
      await stack.stop();
    }
  }

  const summary = (mode: 'off' | 'on') => {
    const rounds = results[mode];
    const sync = rounds.flatMap((r) => r.sync);
    const cpu: CpuSnapshot = new Map();
    for (const r of rounds) addCpu(cpu, r.cpu);
    const jobs = ASYNC_JOBS * rounds.length;
    const perJob = [...cpu.values()].reduce((a, b) => a + b, 0) / jobs;
    const bytes = rounds.reduce((a, r) => a + r.exportedBytes, 0) / jobs;
    return { p50: percentile(sync, 50), p95: percentile(sync, 95), cpu, perJob, jobs, bytes };
  };
  const off = summary('off');
  const on = summary('on');
  writeSection('tracing', 'bench/tracing/run.ts', `${runStamp()}: ~1,500-word article; ${ROUNDS.length} rounds (tracing ${ROUNDS.join(', ')}), each a fresh stack with one renderer: ${SYNC_REQUESTS} sync markdown→html calls after ${WARMUP} warm-up, then ${ASYNC_JOBS} async markdown→text jobs through the API, ${IN_FLIGHT} in flight.

| tracing | sync p50 | sync p95 | CPU a job, all processes (async) | exported a job |
|---|---|---|---|---|
| off (no OTLP endpoint: the baseline) | ${ms(off.p50)} | ${ms(off.p95)} | ${ms(off.perJob)} | — |
| on (every job traced, OTLP/HTTP protobuf to a local sink) | ${ms(on.p50)} | ${ms(on.p95)} | ${ms(on.perJob)} | ${(on.bytes / 1024).toFixed(1)} KiB |
| on ÷ off | ${(on.p50 / off.p50).toFixed(2)}× | ${(on.p95 / off.p95).toFixed(2)}× | ${(on.perJob / off.perJob).toFixed(2)}× (${signed(on.perJob - off.perJob)}) | |

Each round alone, to read the difference against the noise between rounds of the same kind:
${rounds.map((r) => `- tracing ${r.mode}: sync p50 ${ms(r.p50)}, CPU a job ${ms(r.perJob)}`).join('\n')}

Where an async job's CPU went with tracing off:

${cpuTable(off.cpu, off.jobs, 'job')}

and on:

${cpuTable(on.cpu, on.jobs, 'job')}`);
} finally {
  await infra.stop();
  sink.close();
}
