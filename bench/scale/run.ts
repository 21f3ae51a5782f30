// npm run bench:scale — throughput on the cluster of `npm run cluster` with 1, 2 and 4 renderer processes (each on a
// host of its own) and 1 and 2 API processes behind the balancer: sync markdown→html (16 callers, p50 and calls/s)
// and async html→pdf (a batch of jobs, documents/s from the first submit to the last job finished), with the share
// of the machine's two cores in use and the CPU by process. Where adding processes stops adding throughput is where
// this machine saturates; docs/scaling.md models the step to more machines from it. Needs root (namespaces).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { connect } from '@folio/db';
import { createKey, keySeal } from '@folio/keys';
import { apiUrl, isReady, pollUntil, startCluster, type Cluster } from '../../infra/cluster/cluster.ts';
import { only } from '../../infra/cluster/topology.ts';
import { runStamp, writeSection } from '../docs-section.ts';
import { cpuSnapshot, cpuSpent, type CpuSnapshot } from '../process-cpu.ts';
import { percentile } from '../stats.ts';
import type { DriveConfig, DriveResult } from './drive.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const stateDir = path.resolve(process.env.FOLIO_STATE_DIR ?? path.join(root, '.folio'), 'scale');
const SYNC_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PDF_JOBS = Number(process.env.BENCH_PDF_JOBS ?? 120);
const CALLERS = 16;
const say = (line: string) => process.stderr.write(`${line}\n`);

/** Busy and total jiffies of the whole machine (every process, not only ours): how much of the cores was used. */
function machineTicks(): { busy: number; total: number } {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const f = cpu!.split(/\s+/).slice(1).map(Number);
  const idle = f[3]! + f[4]!;
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

async function measured<T>(work: () => Promise<T>): Promise<{ value: T; machine: number; cpu: CpuSnapshot }> {
  const [t0, c0] = [machineTicks(), cpuSnapshot()];
  const value = await work();
  const [t1, c1] = [machineTicks(), cpuSnapshot()];
  return { value, machine: (t1.busy - t0.busy) / (t1.total - t0.total), cpu: cpuSpent(c0, c1) };
}

async function drive(c: Cluster, config: DriveConfig): Promise<DriveResult> {
  const client = only(c.hosts, 'client');
  const { stdout } = await run('ip', ['netns', 'exec', client.netns, process.execPath,
    path.join(import.meta.dirname, 'drive.ts'), JSON.stringify(config)], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as DriveResult;
}

interface Row {
  renderers: number;
  apis: number;
  sync: { perSecond: number; p50: number; refused: number; machine: number };
  pdf: { perSecond: number; machine: number; cpuPerDoc: Map<string, number> };
}

async function scaleTo(c: Cluster, renderers: number, apis: number): Promise<void> {
  for (const role of ['renderer', 'api'] as const) {
    const want = role === 'renderer' ? renderers : apis;
    const hosts = c.hosts.filter((h) => h.role === role);
    await Promise.all(hosts.slice(want).map((h) => c.stopApp(h.name)));
    for (const h of hosts.slice(0, want)) c.startApp(h.name);
  }
  // Every API taking calls again, and the renderers' groups settled (a member that left hands its partitions on).
  for (const h of c.running('api')) await pollUntil(isReady(apiUrl(h)), 120_000, 500);
  await sleep(8_000);
}

async function measure(c: Cluster, key: string, databaseUrl: string): Promise<Omit<Row, 'renderers' | 'apis'>> {
  const sync = await measured(() => drive(c, { url: c.url, key, mode: 'sync-html', callers: CALLERS, warmupMs: 3_000, durationMs: SYNC_SECONDS * 1000 }));
  const latencies = [...sync.value.latencies].sort((a, b) => a - b);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const pdf = await measured(async () => {
      const submitted = await drive(c, { url: c.url, key, mode: 'async-pdf', callers: CALLERS, count: PDF_JOBS });
      for (;;) {
        const [row] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where job_id = any(${submitted.jobIds}::uuid[]) and status in ('succeeded', 'failed')`;
        if (row!.n >= submitted.jobIds.length) break;
        await sleep(100);
      }
      return { count: submitted.jobIds.length, seconds: (Date.now() - submitted.startedAt) / 1000 };
    });
    const cpuPerDoc = new Map([...pdf.cpu].map(([role, ms]) => [role, ms / pdf.value.count]));
    return {
      sync: {
        perSecond: sync.value.ok / SYNC_SECONDS,
        p50: percentile(latencies, 50),
        refused: Object.values(sync.value.others).reduce((a, b) => a + b, 0),
        machine: sync.machine,
      },
      pdf: { perSecond: pdf.value.count / pdf.value.seconds, machine: pdf.machine, cpuPerDoc },
    };
  } finally {
    await sql.end({ timeout: 2 });
  }
}

function bestOf(best: Row, base: Row | undefined, pick: (r: Row) => number, unit: string): string {
  const at = `${pick(best).toFixed(1)} ${unit} with ${best.renderers} renderer${best.renderers > 1 ? 's' : ''} and ${best.apis} API${best.apis > 1 ? 's' : ''}`;
  if (!base || base === best) return `best ${at}: one of each is as far as this machine goes`;
  return `best ${at}, against ${pick(base).toFixed(1)} with one of each (×${(pick(best) / pick(base)).toFixed(2)})`;
}

function report(rows: Row[]): string {
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  const table = rows.map((r) => `| ${r.renderers} | ${r.apis} | ${r.sync.perSecond.toFixed(1)} | ${Math.round(r.sync.p50)} | ${r.sync.refused} | ${pct(r.sync.machine)} | ${r.pdf.perSecond.toFixed(1)} | ${pct(r.pdf.machine)} |`);
  const base = rows.find((r) => r.renderers === 1 && r.apis === 1);
  const best = (pick: (r: Row) => number) => rows.reduce((a, b) => (pick(b) > pick(a) ? b : a));
  const bestSync = best((r) => r.sync.perSecond);
  const bestPdf = best((r) => r.pdf.perSecond);
  const widest = rows.find((r) => r.renderers === 4 && r.apis === 2) ?? rows[0]!;
  const roles = [...widest.pdf.cpuPerDoc].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 0.5)
    .map(([role, ms]) => `${role} ${ms.toFixed(1)} ms`).join(', ');
  return `${runStamp()}; ${SYNC_SECONDS} s of sync calls from ${CALLERS} callers and ${PDF_JOBS} async pdfs a configuration, on the cluster of \`npm run cluster\` (3 brokers, RF 3) on 2 cores.

| renderers | APIs | sync md→html calls/s | p50 ms | refused | cores busy | async html→pdf docs/s | cores busy |
|---|---|---|---|---|---|---|---|
${table.join('\n')}

- Sync markdown→html: ${bestOf(bestSync, base, (r) => r.sync.perSecond, 'calls/s')}.
- Async html→pdf: ${bestOf(bestPdf, base, (r) => r.pdf.perSecond, 'documents/s')}.
- CPU a pdf with 4 renderers and 2 APIs, by process: ${roles}.`;
}

async function main(): Promise<void> {
  const configs: Array<[number, number]> = [[4, 2], [4, 1], [2, 1], [2, 2], [1, 2], [1, 1]];
  say('bench:scale: starting the cluster (4 renderer hosts, 2 APIs)');
  const c = await startCluster({
    stateDir: path.join(stateDir, 'cluster'), renderers: 4, apis: 2, say,
    giveUp: () => say('an app keeps crashing'),
    // The benchmark's one key makes every call: per-key limits would measure the limiter, not the service.
    appEnv: { FOLIO_RATE_LIMIT_SCALE: '1000' },
  });
  try {
    const database = connect(c.env.DATABASE_URL!, { max: 1 });
    const { key } = await createKey(database.db, keySeal({ keySecret: undefined, keySecretFile: c.env.FOLIO_KEY_SECRET_FILE! }), 'paid');
    await database.close();
    // Warm-up: each renderer's Chromium and each API's first requests.
    await drive(c, { url: c.url, key, mode: 'async-pdf', callers: 8, count: 40 });
    await drive(c, { url: c.url, key, mode: 'sync-html', callers: 8, durationMs: 5_000 });
    const rows: Row[] = [];
    for (const [renderers, apis] of configs) {
      await scaleTo(c, renderers, apis);
      const m = await measure(c, key, c.env.DATABASE_URL!);
      rows.push({ renderers, apis, ...m });
      say(`${renderers} renderer(s), ${apis} API(s): sync ${m.sync.perSecond.toFixed(1)} calls/s p50 ${Math.round(m.sync.p50)} ms; pdf ${m.pdf.perSecond.toFixed(1)} docs/s`);
    }
    writeSection('scale', 'npm run bench:scale (bench/scale/run.ts)', report(rows), 'docs/scaling.md');
  } finally {
    await c.stop();
  }
}

await main();
