// bench/pipeline: what conversions of supplied input cost, what the event-sourced pipeline adds, and how async
// throughput grows with renderers.
//   (0) in-process, side by side in one run: Folio's Markdown parser (markdown-it) alone on the article (the
//       parser's own time, the baseline), then `convert()` of the same article as Markdown and as the HTML that
//       parser makes of it, to html, text,
//       markdown and json;
//   (a) sync markdown→html latency through Folio (HTTP → Kafka → renderer → Kafka → projector → Postgres → HTTP)
//       against the same conversion function called in-process just before each call, p50/p95;
//   (b) async throughput, jobs/s, for 2,400 markdown→text jobs with 1 (in slices, each after in-process conversions
//       of the same article: the CPU a job's baseline) and with 2 renderer processes.
// Run: npm run bench:pipeline  (starts its own services under .folio/bench; writes its section of docs/benchmarks.md)
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { convert, markdownToHtml } from '@folio/conversion';
import { loadConfig } from '@folio/config';
import { DEFAULT_OPTIONS } from '@folio/events';
import { EventPublisher } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { connectEventLog } from '@folio/service';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';
import { drainJobs, warmRenderers } from './drain.ts';
import { percentile } from '../stats.ts';
import { keptAliveClient, keyedJson } from '../http-client.ts';
import { addCpu, cpuSnapshot, cpuSpent, cpuTable, type CpuSnapshot } from '../process-cpu.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';

const SYNC_REQUESTS = Number(process.env.BENCH_SYNC_REQUESTS ?? 300);
// The broker is a JVM started moments ago: its hot paths are compiled after some thousand requests (p50 ~20 ms
// after 300 warm-up calls, ~12 ms after 1,500 here). A production broker is warm, so the figures are taken warm.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1500);
const ASYNC_JOBS = Number(process.env.BENCH_ASYNC_JOBS ?? 2400);
/** The one-renderer drain's slices, each after a slice of in-process conversions (the baseline); and their calls. */
const DRAIN_SLICES = Number(process.env.BENCH_DRAIN_SLICES ?? 6);
const BASELINE_CALLS = 100;
const WARM_JOBS = 400;
const IN_FLIGHT = 32;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const IDLE_SETTLE_SECONDS = 30;
const APPS = ['api', 'renderer', 'projector', 'dispatcher'];
const options = { ...DEFAULT_OPTIONS, title: 'Bench' };

const ms = (n: number) => `${n.toFixed(1)} ms`;
const PARSER = 'markdown-it alone (Markdown → HTML)';
const log = (line: string) => process.stderr.write(`${line}\n`);

const infra = await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: (line) => log(`[infra] ${line}`),
});

try {
  const markdown = sampleArticle(1500);

  // (0) supplied input in-process, each measured the same number of times in turn, after a warm-up.
  const suppliedHtml = markdownToHtml(markdown);
  const engine: Record<string, number[]> = {};
  const time = async (label: string, work: () => unknown) => {
    const t0 = performance.now();
    await work();
    (engine[label] ??= []).push(performance.now() - t0);
  };
  for (let i = 0; i < SYNC_REQUESTS + 300; i++) {
    await time(PARSER, () => markdownToHtml(markdown));
    for (const output of ['html', 'text', 'markdown', 'json'] as const) {
      for (const kind of ['markdown', 'html'] as const) {
        await time(`${kind} → ${output}`, () => convert({ input: { kind, text: kind === 'markdown' ? markdown : suppliedHtml }, output, options }));
      }
    }
    if (i === 299) for (const label of Object.keys(engine)) engine[label] = [];
  }
  const parserP50 = percentile(engine[PARSER]!, 50);
  log(`in-process done: markdown-it p50 ${ms(parserP50)}, markdown → html p50 ${ms(percentile(engine['markdown → html']!, 50))}`);

  // (a) latency. Each call through Folio follows an in-process call of the same conversion, so that both meet the
  // machine in the same state: this shared VM's speed swings within seconds (one process converts the article in
  // 4 ms for a while and in 7.5 ms the next), and a baseline timed a minute apart from what it is compared with
  // measures the hour, not the pipeline. The calls go on a kept-alive node:http connection (bench/http-client.ts).
  const inProcess: number[] = [];
  const stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn' } });
  const through: number[] = [];
  const client = keptAliveClient(1);
  try {
    const key = await stack.createKey('paid');
    for (let i = 0; i < SYNC_REQUESTS + WARMUP; i++) {
      let t0 = performance.now();
      await convert({ input: { kind: 'markdown', text: markdown }, output: 'html', options });
      const local = performance.now() - t0;
      t0 = performance.now();
      const response = await client.call('POST', `${stack.url}/v2/convert`, keyedJson(key),
        Buffer.from(JSON.stringify({ markdown, output: 'html', title: 'Bench' })));
      if (response.status !== 200) throw new Error(`sync request failed: ${response.status} ${response.body.toString().slice(0, 200)}`);
      JSON.parse(response.body.toString()); // a caller reads its answer
      if (i >= WARMUP) {
        through.push(performance.now() - t0);
        inProcess.push(local);
      }
    }
  } finally {
    client.close();
    await stack.stop();
  }
  const latency = {
    folio: { p50: percentile(through, 50), p95: percentile(through, 95) },
    inProcess: { p50: percentile(inProcess, 50), p95: percentile(inProcess, 95) },
  };
  log(`latency done: folio p50 ${ms(latency.folio.p50)}, in-process p50 ${ms(latency.inProcess.p50)}`);

  // (b) throughput. The renderers are started and warmed first (every one has finished jobs, so the group is settled
  // and no rebalance falls inside the measurement); then JobQueued events are written straight to the async lane and
  // drained, in slices: before each slice, the benchmark converts the same article in process (the baseline of the
  // CPU a job, timed beside the drain for the reason the latency's calls alternate). A slice's rate comes from the
  // log's own timestamps, first JobSucceeded to last; its CPU from every process, publish to last success. The API's
  // intake is measured on its own while warming.
  const throughput: Array<{ renderers: number; jobs: number; jobsPerSecond: number; seconds: number; ingestPerSecond: number; cpu: CpuSnapshot }> = [];
  /** The in-process markdown→text conversions timed between the one-renderer drain's slices: wall times, and CPU. */
  const baseline = { walls: [] as number[], cpuMs: 0 };
  let idle: CpuSnapshot = new Map();
  for (const renderers of [1, 2]) {
    const s = await Stack.start({ infra: infra.env, renderers, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_TOPIC_PARTITIONS: '12' } });
    const k = await s.createKey('paid');
    const [{ id: keyId }] = (await s.sql`select id from api_keys`) as unknown as [{ id: string }];
    const ingestPerSecond = await warmRenderers(s, k, markdown, renderers, WARM_JOBS, IN_FLIGHT);

    const log_ = connectEventLog(loadConfig(s.env), createLogger('bench', 'warn'), 'folio-bench');
    const publisher = new EventPublisher(log_.kafka, log_.codec, log_.topics);
    await publisher.connect();
    const slices = renderers === 1 ? DRAIN_SLICES : 1;
    const perSlice = Math.floor(ASYNC_JOBS / slices);
    const cpu: CpuSnapshot = new Map();
    let seconds = 0;
    let rated = 0;
    for (let slice = 0; slice < slices; slice++) {
      if (renderers === 1) {
        const c0 = process.threadCpuUsage();
        for (let i = 0; i < BASELINE_CALLS; i++) {
          const t = performance.now();
          await convert({ input: { kind: 'markdown', text: `${markdown}\n\nBaseline ${i}.` }, output: 'text', options });
          baseline.walls.push(performance.now() - t);
        }
        const c = process.threadCpuUsage(c0);
        baseline.cpuMs += (c.user + c.system) / 1000;
      }
      const cpuBefore = cpuSnapshot();
      seconds += await drainJobs(s, publisher, keyId, markdown, perSlice);
      // Everything the slice cost, the benchmark's own publishing and polling included (a small share).
      addCpu(cpu, cpuSpent(cpuBefore, cpuSnapshot()));
      rated += perSlice - 1;
    }
    await publisher.disconnect();
    throughput.push({ renderers, jobs: perSlice * slices, seconds, jobsPerSecond: rated / seconds, ingestPerSecond, cpu });
    log(`throughput with ${renderers} renderer(s): ${(rated / seconds).toFixed(1)} jobs/s (API intake ${ingestPerSecond.toFixed(0)}/s)`);
    if (renderers === 1) {
      // The same stack idle: nothing asked of it, every app connected and waiting. The first seconds after a burst
      // are V8 compacting the heaps it grew (measured: ~25 ms of CPU a second in the renderer's GC helpers and
      // workers for ~15 s, then nothing): they are let pass.
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_SECONDS * 1000));
      const idleBefore = cpuSnapshot();
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      idle = cpuSpent(idleBefore, cpuSnapshot());
      log(`idle: ${[...idle].map(([role, ms]) => `${role} ${(ms / IDLE_SECONDS).toFixed(1)} ms/s`).join(', ')}`);
    }
    await s.stop();
  }

  const overhead = latency.folio.p50 - latency.inProcess.p50;
  const engineRows = Object.entries(engine)
    .map(([label, times]) => {
      const p50 = percentile(times, 50);
      return `| ${label} | ${ms(p50)} | ${ms(percentile(times, 95))} | ${(p50 / parserP50).toFixed(1)}× |`;
    })
    .join('\n');
  const over = Object.entries(engine).filter(([label, times]) => label !== PARSER && percentile(times, 50) > 4 * parserP50);
  const inProcessVerdict =
    over.length === 0 ? 'met for every conversion' : `NOT met for ${over.map(([label]) => label).join(', ')}`;
  writeSection('pipeline', 'bench/pipeline/run.ts', `${runStamp()}: ~1,500-word article (${markdown.length.toLocaleString('en')} characters of Markdown), ${SYNC_REQUESTS} timed calls of each after warm-up.

| in-process, one run, calls in turn | p50 | p95 | × the parser's p50 |
|---|---|---|---|
${engineRows}

"html" input is the HTML the parser makes of the same article. Target: supplied input at ≤ 4× the parser's time — ${inProcessVerdict}.

| sync markdown→html | p50 | p95 |
|---|---|---|
| in-process \`convert()\`, each just before a call through Folio (baseline) | ${ms(latency.inProcess.p50)} | ${ms(latency.inProcess.p95)} |
| through Folio (HTTP, Kafka, renderer, projector, Postgres) | ${ms(latency.folio.p50)} | ${ms(latency.folio.p95)} |
| pipeline overhead | ${ms(overhead)} | ${ms(latency.folio.p95 - latency.inProcess.p95)} |

| async markdown→text, ${ASYNC_JOBS} jobs written to the async lane, drained by warm renderers (one renderer: in ${DRAIN_SLICES} slices) | jobs/s | first to last success |
|---|---|---|
${throughput.map((t) => `| ${t.renderers} renderer${t.renderers > 1 ? 's' : ''} | ${t.jobsPerSecond.toFixed(1)} | ${t.seconds.toFixed(1)} s |`).join('\n')}

API intake (async 202s, ${IN_FLIGHT} requests in flight, while renderers work): ${throughput.map((t) => `${t.ingestPerSecond.toFixed(0)}/s`).join(', ')}.

Where the drain's CPU went, one renderer (every process this benchmark started, measured over the drain's slices):

${cpuTable(throughput[0]!.cpu, throughput[0]!.jobs, 'job')}

The same stack idle (one renderer; nothing asked of it, every app connected; measured over ${IDLE_SECONDS} s from ${IDLE_SETTLE_SECONDS} s after the drain), CPU a second:

| process | CPU a second |
|---|---|
${[...idle].sort((a, b) => b[1] - a[1]).map(([role, spent]) => `| ${role} | ${(spent / IDLE_SECONDS).toFixed(1)} ms |`).join('\n')}

${targets()}`);

  /** The targets of the batching issue, each a ratio to a baseline of this run, beside the figures it comes from. */
  function targets(): string {
    const convertP50 = percentile(baseline.walls, 50);
    const convertCpu = baseline.cpuMs / baseline.walls.length;
    const quietP50 = percentile(engine['markdown → text']!, 50);
    const quietHtmlP50 = percentile(engine['markdown → html']!, 50);
    const cpuPerJobOf = (run: number) => [...throughput[run]!.cpu.values()].reduce((a, b) => a + b, 0) / throughput[run]!.jobs;
    const cpuPerJob = cpuPerJobOf(0);
    const allow = (2 * 1000) / cpuPerJob;
    const syncRatio = latency.folio.p50 / latency.inProcess.p50;
    const busiestIdle = Math.max(...APPS.map((app) => (idle.get(app) ?? 0) / IDLE_SECONDS));
    return [
      'Targets, each as a ratio to a baseline of this run:',
      `- async markdown→text: CPU a job in all ${ms(cpuPerJob)} = ${(cpuPerJob / convertCpu).toFixed(2)}× the mean CPU of the in-process \`convert()\` calls timed between the drain's slices (${ms(convertCpu)}; ${baseline.walls.length} calls, p50 ${ms(convertP50)}); target ≤ 2.5× — ${verdict(cpuPerJob <= 2.5 * convertCpu)}. Against the p50 of the same conversion timed in turn at the start of the run, on a quiet machine (${ms(quietP50)}): ${(cpuPerJob / quietP50).toFixed(2)}× — ${verdict(cpuPerJob <= 2.5 * quietP50)}.`,
      `- one renderer drains at ${throughput[0]!.jobsPerSecond.toFixed(1)} jobs/s = ${((100 * throughput[0]!.jobsPerSecond) / allow).toFixed(0)} % of the ${allow.toFixed(0)} jobs/s two cores allow at that cost; target ≥ 90 % — ${verdict(throughput[0]!.jobsPerSecond >= 0.9 * allow)}; two renderers ${throughput[1]!.jobsPerSecond.toFixed(1)} jobs/s at ${ms(cpuPerJobOf(1))} of CPU a job, more than one — ${verdict(throughput[1]!.jobsPerSecond > throughput[0]!.jobsPerSecond)}.`,
      `- sync markdown→html through the stack: p50 ${ms(latency.folio.p50)} = ${syncRatio.toFixed(1)}× the p50 of the in-process calls alternating with it (${ms(latency.inProcess.p50)}); target ≤ 3× — ${verdict(syncRatio <= 3)}; against the p50 timed in turn at the start (${ms(quietHtmlP50)}): ${(latency.folio.p50 / quietHtmlP50).toFixed(1)}×; and ≤ 15 ms — ${verdict(latency.folio.p50 <= 15)}.`,
      `- idle: the busiest app spends ${busiestIdle.toFixed(1)} ms of CPU a second; target ≤ 5 ms in each — ${verdict(busiestIdle <= 5)}.`,
    ].join('\n');
  }
} finally {
  await infra.stop();
}
