// Where the time of a sync call goes: from the events' own timestamps. Run: node bench/pipeline/probe.ts
// (BENCH_OUTPUT=pdf for a pdf, BENCH_WARMUP for fewer warm-up calls).
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';
import { cpuSnapshot, cpuSpent, cpuTable, type CpuSnapshot } from '../process-cpu.ts';

const infra = process.env.BENCH_INFRA ? { env: JSON.parse(process.env.BENCH_INFRA), stop: async () => {} } : await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: () => {},
});
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn' } });
try {
  const key = await stack.createKey('paid');
  await stack.sql`alter table job_history add column if not exists inserted_at timestamptz default clock_timestamp()`;
  const markdown = sampleArticle(1500);
  const output = process.env.BENCH_OUTPUT ?? 'html';
  const totals: number[] = [];
  const marks: Array<{ start: number; end: number }> = [];
  // The broker is a JVM started moments ago: its hot paths compile after a thousand requests or so (see run.ts).
  const WARM = Number(process.env.BENCH_WARMUP ?? 1000);
  const N = WARM + 200;
  // What a sync call costs each process, and Postgres in transactions and rows, over the measured calls.
  const database = async () =>
    (await stack.sql<Array<Record<string, number>>>`
      select xact_commit::int as commits, tup_inserted::int as inserted, tup_updated::int as updated, tup_fetched::int as fetched
      from pg_stat_database where datname = current_database()`)[0]!;
  let cpuBefore: CpuSnapshot = new Map();
  let dbBefore: Record<string, number> = {};
  for (let i = 0; i < N; i++) {
    if (i === WARM) {
      cpuBefore = cpuSnapshot();
      dbBefore = await database();
    }
    const t0 = performance.now();
    const start = Date.now();
    await stack.request('POST', '/v2/convert', { key, json: { markdown, output } });
    marks.push({ start, end: Date.now() });
    if (i >= WARM) totals.push(performance.now() - t0);
  }
  const cpu = cpuSpent(cpuBefore, cpuSnapshot());
  console.log(cpuTable(cpu, N - WARM, 'sync call'));
  const dbAfter = await database();
  console.log('Postgres a sync call:', Object.fromEntries(Object.keys(dbAfter).map((k) => [k, ((dbAfter[k]! - dbBefore[k]!) / (N - WARM)).toFixed(1)])));
  const rows = await stack.sql<{ job_id: string; type: string; t: Date; i: Date }[]>`select job_id, type, occurred_at as t, inserted_at as i from job_history order by occurred_at`;
  const byJob = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const j = byJob.get(r.job_id) ?? {};
    j[r.type] = new Date(r.t).getTime();
    j[`${r.type}_projected`] = new Date(r.i).getTime();
    byJob.set(r.job_id, j);
  }
  const all = [...byJob.values()];
  const jobs = all.slice(WARM);
  console.log({
    request_to_queued: med(all.slice(WARM).map((j, i) => j.JobQueued! - marks[i + WARM]!.start)),
    succeeded_to_projected: med(jobs.map((j) => j.JobSucceeded_projected! - j.JobSucceeded!)),
    queued_to_projected: med(jobs.map((j) => j.JobQueued_projected! - j.JobQueued!)),
    succeeded_to_answer: med(all.slice(WARM).map((j, i) => marks[i + WARM]!.end - j.JobSucceeded!)),
    total_p50: med(totals).toFixed(1),
    queued_to_processing: med(jobs.map((j) => j.JobProcessing! - j.JobQueued!)),
    processing_to_succeeded: med(jobs.map((j) => j.JobSucceeded! - j.JobProcessing!)),
  });
} finally {
  await stack.stop();
  await infra.stop();
}
