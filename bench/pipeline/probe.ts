// Where the time of a sync call goes: from the events' own timestamps. Run: node bench/pipeline/probe.ts
// BENCH_OUTPUT=pdf for a pdf (its file downloaded, as a caller does), BENCH_INPUT=html to send the article as the HTML
// Folio's Markdown parser makes of it (bench/pdf-service's input), BENCH_IN_FLIGHT=4 for calls made 4 at a time
// (default 1, calls in turn), BENCH_WARMUP / BENCH_CALLS for the calls before and during the measure.
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { markdownToHtml } from '@folio/conversion';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';
import { cpuSnapshot, cpuSpent, cpuTable, type CpuSnapshot } from '../process-cpu.ts';
import { keptAliveClient, keyedJson } from '../http-client.ts';

const infra = process.env.BENCH_INFRA ? { env: JSON.parse(process.env.BENCH_INFRA), stop: async () => {} } : await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: () => {},
});
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT_SCALE: '1000' } });
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 1);
const client = keptAliveClient(inFlight * 2);
try {
  const key = await stack.createKey('paid');
  await stack.sql`alter table job_history add column if not exists inserted_at timestamptz default clock_timestamp()`;
  const markdown = sampleArticle(1500);
  const output = process.env.BENCH_OUTPUT ?? 'html';
  const input = process.env.BENCH_INPUT === 'html' ? { html: markdownToHtml(markdown) } : { markdown };
  // The broker is a JVM started moments ago: its hot paths compile after a thousand requests or so (see run.ts).
  const WARM = Number(process.env.BENCH_WARMUP ?? 1000);
  const CALLS = Number(process.env.BENCH_CALLS ?? 200);
  // What a sync call costs each process, and Postgres in transactions and rows, over the measured calls.
  const database = async () =>
    (await stack.sql<Array<Record<string, number>>>`
      select xact_commit::int as commits, tup_inserted::int as inserted, tup_updated::int as updated, tup_fetched::int as fetched
      from pg_stat_database where datname = current_database()`)[0]!;
  /** The measured calls by request id: when each was sent, answered, and its file downloaded (pdf, docx). */
  const calls = new Map<string, { start: number; answered: number; done: number }>();
  const call = async (measured: boolean) => {
    const start = Date.now();
    const answer = await client.call('POST', `${stack.url}/v2/convert`, keyedJson(key),
      Buffer.from(JSON.stringify({ ...input, output })));
    if (answer.status !== 200) throw new Error(`convert failed: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
    const answered = Date.now();
    const { file_url } = JSON.parse(answer.body.toString()) as { file_url?: string };
    if (file_url) await client.call('GET', file_url);
    if (measured) calls.set(String(answer.headers['x-request-id']), { start, answered, done: Date.now() });
  };
  const callsOf = async (n: number, measured: boolean) => {
    let left = n;
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (left-- > 0) await call(measured);
    }));
  };
  await callsOf(WARM, false);
  const cpuBefore: CpuSnapshot = cpuSnapshot();
  const dbBefore = await database();
  const started = performance.now();
  await callsOf(CALLS, true);
  const seconds = (performance.now() - started) / 1000;
  console.log(cpuTable(cpuSpent(cpuBefore, cpuSnapshot()), CALLS, 'sync call'));
  const dbAfter = await database();
  console.log('Postgres a sync call:', Object.fromEntries(Object.keys(dbAfter).map((k) => [k, ((dbAfter[k]! - dbBefore[k]!) / CALLS).toFixed(1)])));
  const rows = await stack.sql<{ request_id: string; type: string; t: Date; i: Date }[]>`
    select j.request_id, h.type, h.occurred_at as t, h.inserted_at as i from job_history h join jobs j using (job_id)`;
  const byRequest = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const j = byRequest.get(r.request_id) ?? {};
    j[r.type] = new Date(r.t).getTime();
    j[`${r.type}_projected`] = new Date(r.i).getTime();
    byRequest.set(r.request_id, j);
  }
  const marks = [...calls].map(([id, call]) => ({ call, job: byRequest.get(id)! }));
  const of = (f: (m: (typeof marks)[number]) => number) => med(marks.map(f));
  console.log(`${CALLS} calls, ${inFlight} in flight: ${(CALLS / seconds).toFixed(1)} calls/s; medians, ms:`, {
    request_to_queued: of(({ call, job }) => job.JobQueued! - call.start),
    queued_to_projected: of(({ job }) => job.JobQueued_projected! - job.JobQueued!),
    queued_to_processing: of(({ job }) => job.JobProcessing! - job.JobQueued!),
    processing_to_succeeded: of(({ job }) => job.JobSucceeded! - job.JobProcessing!),
    succeeded_to_projected: of(({ job }) => job.JobSucceeded_projected! - job.JobSucceeded!),
    succeeded_to_answer: of(({ call, job }) => call.answered - job.JobSucceeded!),
    download: of(({ call }) => call.done - call.answered),
    total: of(({ call }) => call.done - call.start),
  });
} finally {
  client.close();
  await stack.stop();
  await infra.stop();
}
