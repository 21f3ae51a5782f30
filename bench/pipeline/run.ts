// bench/pipeline: what the event-sourced pipeline costs, and how async throughput grows with renderers.
//   (a) sync markdown→html latency through Folio (HTTP → Kafka → renderer → Kafka → projector → Postgres → HTTP)
//       against the same conversion function called in-process, p50/p95, in the same run;
//   (b) async throughput, jobs/s, for 1,000 markdown→text jobs with 1 and with 2 renderer processes.
// Run: npm run bench:pipeline  (starts its own services under .folio/bench; prints a Markdown table)
import { resolve } from 'node:path';
import { convert } from '@folio/conversion';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';

const SYNC_REQUESTS = Number(process.env.BENCH_SYNC_REQUESTS ?? 300);
const ASYNC_JOBS = Number(process.env.BENCH_ASYNC_JOBS ?? 1000);
const IN_FLIGHT = 32;
const options = { title: 'Bench', source_url: null, page_size: null, css_url: null, header_text: null, header_image_url: null, lang: null, dir: null, include_links: false };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const log = (line: string) => process.stderr.write(`${line}\n`);

const infra = await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: { kafka: 39092, kafkaController: 39093, registry: 38081, postgres: 35432, s3: 38333 },
  s3: false,
  log: (line) => log(`[infra] ${line}`),
});

try {
  const markdown = sampleArticle(1500);

  // (a) latency
  const inProcess: number[] = [];
  for (let i = 0; i < SYNC_REQUESTS + 50; i++) {
    const t0 = performance.now();
    convert({ input: { kind: 'markdown', text: markdown }, output: 'html', options });
    if (i >= 50) inProcess.push(performance.now() - t0);
  }
  const stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn' } });
  const key = await stack.createKey('paid');
  const through: number[] = [];
  for (let i = 0; i < SYNC_REQUESTS + 50; i++) {
    const t0 = performance.now();
    const response = await stack.request('POST', '/v2/convert', { key, json: { markdown, output: 'html', title: 'Bench' } });
    if (response.status !== 200) throw new Error(`sync request failed: ${response.status} ${response.text.slice(0, 200)}`);
    if (i >= 50) through.push(performance.now() - t0);
  }
  await stack.stop();
  const latency = {
    folio: { p50: percentile(through, 50), p95: percentile(through, 95) },
    inProcess: { p50: percentile(inProcess, 50), p95: percentile(inProcess, 95) },
  };
  log(`latency done: folio p50 ${ms(latency.folio.p50)}, in-process p50 ${ms(latency.inProcess.p50)}`);

  // (b) throughput
  const throughput: Array<{ renderers: number; jobsPerSecond: number; seconds: number }> = [];
  for (const renderers of [1, 2]) {
    const s = await Stack.start({ infra: infra.env, renderers, env: { FOLIO_LOG_LEVEL: 'warn' } });
    const k = await s.createKey('paid');
    // Warm the renderers and the projector before the clock starts.
    for (let i = 0; i < 20; i++) await s.request('POST', '/v2/convert', { key: k, json: { markdown: 'warm *up*', output: 'text' } });
    const [{ before }] = (await s.sql`select count(*)::int as before from jobs`) as unknown as [{ before: number }];
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < ASYNC_JOBS) {
          const i = next++;
          const r = await s.request('POST', '/v2/convert', { key: k, json: { markdown: `${markdown}\n\nJob ${i}.`, output: 'text', async: true } });
          if (r.status !== 202) throw new Error(`async request failed: ${r.status}`);
        }
      }),
    );
    await s.until(async () => {
      const [{ done }] = (await s.sql`select count(*)::int as done from jobs where status in ('succeeded', 'failed')`) as unknown as [{ done: number }];
      return done >= before + ASYNC_JOBS;
    }, 600_000, 'all jobs to finish');
    const seconds = (performance.now() - t0) / 1000;
    throughput.push({ renderers, seconds, jobsPerSecond: ASYNC_JOBS / seconds });
    log(`throughput with ${renderers} renderer(s): ${(ASYNC_JOBS / seconds).toFixed(1)} jobs/s`);
    await s.stop();
  }

  const overhead = latency.folio.p50 - latency.inProcess.p50;
  process.stdout.write(`
## bench/pipeline — ${new Date().toISOString().slice(0, 10)}, ${SYNC_REQUESTS} sync requests, ${ASYNC_JOBS} async jobs, ~1,500-word article

| sync markdown→html | p50 | p95 |
|---|---|---|
| in-process \`convert()\` (baseline) | ${ms(latency.inProcess.p50)} | ${ms(latency.inProcess.p95)} |
| through Folio (HTTP, Kafka, renderer, projector, Postgres) | ${ms(latency.folio.p50)} | ${ms(latency.folio.p95)} |
| pipeline overhead | ${ms(overhead)} | ${ms(latency.folio.p95 - latency.inProcess.p95)} |

| async markdown→text, ${ASYNC_JOBS} jobs | jobs/s | wall time |
|---|---|---|
${throughput.map((t) => `| ${t.renderers} renderer${t.renderers > 1 ? 's' : ''} | ${t.jobsPerSecond.toFixed(1)} | ${t.seconds.toFixed(1)} s |`).join('\n')}

Target: pipeline overhead p50 ≤ 15 ms — ${overhead <= 15 ? 'met' : 'NOT met'}; throughput growing with renderers — ${throughput[1]!.jobsPerSecond > throughput[0]!.jobsPerSecond ? 'yes' : 'no'}.
`);
} finally {
  await infra.stop();
}
