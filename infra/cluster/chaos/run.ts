// `npm run chaos`: faults under load on the cluster of `npm run cluster`. Steady load runs from the client host
// (load.ts) with callbacks to a receiver on its own host (receiver.ts), while, one after another, the leader broker
// is killed and restarted, a renderer host is cut off the network for 30 s, an API process is killed behind the
// balancer, Postgres is restarted, and the projector and the dispatcher are killed. Then the jobs are let drain and
// the verdict (verdict.ts) is printed as one closing line and written into docs/scaling.md. Exits 1 when anything
// was lost, stuck or counted twice, a callback is missing or badly signed, or a 5xx was answered.
import { readFileSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Admin } from '@platformatic/kafka';
import { Webhook } from 'standardwebhooks';
import postgres from 'postgres';
import { connect } from '@folio/db';
import { createKey, INCLUDED_DOCUMENTS, keySeal } from '@folio/keys';
import { runStamp, writeSection } from '../../../bench/docs-section.ts';
import { selfSignedCertificate } from '../../certificate.ts';
import { spawnService, type SupervisedService } from '../../services/process.ts';
import { apiUrl, isReady, pollUntil, startCluster, type Cluster } from '../cluster.ts';
import { only, PORTS } from '../topology.ts';
import type { LoadConfig, RequestRecord } from './requests.ts';
import type { ReceivedCallback, ReceiverConfig } from './receiver.ts';
import { closingLine, verdict, type CallbackRow, type FaultWindow, type JobRow, type UsageRow, type Verdict } from './verdict.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const stateDir = path.resolve(process.env.FOLIO_STATE_DIR ?? path.join(root, '.folio'), 'chaos');
const PER_SECOND = Number(process.env.CHAOS_RATE ?? 4);
/** Quiet time after each fault: longer than the 20 s "after" window of the verdict, so no window spans two faults. */
const SETTLE_MS = 25_000;
const say = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

let cluster: Cluster | undefined;
const helpers: SupervisedService[] = [];
async function cleanUp(): Promise<void> {
  await Promise.all(helpers.map((h) => h.stop().catch(() => h.kill())));
  await cluster?.stop();
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanUp().then(() => process.exit(143)));

/** Starts a script of this folder on a host of the cluster, with its config in a file. */
async function runOnHost(name: string, netns: string, script: string, config: object): Promise<SupervisedService> {
  const dir = path.join(stateDir, name);
  await fsp.mkdir(dir, { recursive: true });
  const configFile = path.join(dir, 'config.json');
  await fsp.writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
  const svc = await spawnService({
    name, command: process.execPath, args: [path.join(import.meta.dirname, script), configFile],
    dataDir: dir, cwd: root, netns, cmdlineMarker: configFile, stopTimeoutMs: 60_000,
  });
  helpers.push(svc);
  return svc;
}

/** The broker that leads the most partitions of Folio's topics: the one whose loss moves the most. */
async function busiestLeader(c: Cluster): Promise<string> {
  const admin = new Admin({ clientId: 'folio-chaos', bootstrapBrokers: c.env.KAFKA_BROKERS!.split(',') });
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith('folio.'));
    const metadata = await admin.metadata({ topics });
    const led = new Map<number, number>();
    for (const topic of metadata.topics.values()) {
      for (const p of topic.partitions.values()) led.set(p.leader, (led.get(p.leader) ?? 0) + 1);
    }
    const [nodeId] = [...led.entries()].sort((a, b) => b[1] - a[1])[0]!;
    return `broker${nodeId}`;
  } finally {
    await admin.close();
  }
}

/** The faults, one after another, each with its window (from when it struck to when what it broke was back). */
async function faults(c: Cluster): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  const strike = async (name: string, fault: () => Promise<void>, settleMs: number) => {
    const start = Date.now();
    say(`fault: ${name}`);
    await fault();
    windows.push({ name, start, end: Date.now() });
    say(`fault over: ${name} (${((Date.now() - start) / 1000).toFixed(1)} s); settling ${settleMs / 1000} s`);
    await sleep(settleMs);
  };
  // Warm-up: the first conversions of a fresh cluster are slow (Chromium's first pages, the JIT), and the "before"
  // of the first fault should be the steady state.
  await sleep(40_000);

  const leader = await busiestLeader(c);
  await strike(`kill -9 ${leader} (leader)`, async () => {
    await c.killBroker(leader);
    await sleep(20_000);
    await c.startBroker(leader);
  }, SETTLE_MS);

  const renderer = 'render1';
  await strike(`${renderer} cut off 30 s`, async () => {
    c.cutOff(renderer);
    await sleep(30_000);
    c.reconnect(renderer);
  }, SETTLE_MS);

  const api = c.host('api1');
  await strike('kill -9 api1', async () => {
    c.killApp('api1');
    await sleep(1_000);
    await pollUntil(isReady(apiUrl(api)), 120_000, 500);
  }, SETTLE_MS);

  await strike('Postgres restart', () => c.restartPostgres(), SETTLE_MS);

  await strike('kill -9 projector and dispatcher', async () => {
    c.killApp('projector');
    c.killApp('dispatcher');
    await sleep(10_000);
  }, SETTLE_MS);
  return windows;
}

async function gather(c: Cluster, keyNames: Map<string, { name: string; key: string }>, callbacksFile: string) {
  const sql = postgres(c.env.DATABASE_URL!, { max: 2, onnotice: () => undefined });
  try {
    const rows = await sql<{ job_id: string; key_id: string; status: string; request_id: string | null; webhook: boolean }[]>`
      select job_id, key_id, status, request_id, webhook_url is not null as webhook from jobs`;
    const jobs: JobRow[] = rows
      .map((j) => ({ jobId: j.job_id, key: keyNames.get(j.key_id)?.name ?? j.key_id, status: j.status, requestId: j.request_id, webhook: j.webhook }));
    const usage: UsageRow[] = (await sql<{ job_id: string; key_id: string }[]>`select job_id, key_id from usage`)
      .map((u) => ({ jobId: u.job_id, key: keyNames.get(u.key_id)?.name ?? u.key_id }));
    const keyOfJob = new Map(rows.map((j) => [j.job_id, j.key_id]));
    const received = readFileSync(callbacksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReceivedCallback);
    const callbacks: CallbackRow[] = received.map((r) => {
      const jobId = r.headers['webhook-id'] ?? '';
      const key = keyNames.get(keyOfJob.get(jobId) ?? '')?.key;
      let valid = false;
      try {
        // The Standard Webhooks reference library, keyed with the API key that started the job; and the id to
        // deduplicate by is the job's, in the headers and the body alike.
        const payload = key ? new Webhook(new TextEncoder().encode(key), { format: 'raw' }).verify(r.body, r.headers) as { job_id?: string } : undefined;
        valid = payload?.job_id === jobId && r.headers['x-folio-job-id'] === jobId;
      } catch {
        valid = false;
      }
      return { jobId, valid };
    });
    return { jobs, usage, callbacks };
  } finally {
    await sql.end({ timeout: 2 });
  }
}

function report(v: Verdict, faultsSeen: FaultWindow[], records: RequestRecord[]): string {
  const answers = Object.entries(v.answers).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join(', ');
  const rows = v.latency.map((f) => {
    const w = faultsSeen.find((x) => x.name === f.name)!;
    const cell = (l: { n: number; p50: number; p99: number }) => (l.n ? `${Math.round(l.p50)} / ${Math.round(l.p99)} (${l.n})` : '–');
    return `| ${f.name} | ${((w.end - w.start) / 1000).toFixed(1)} s | ${cell(f.before)} | ${cell(f.during)} | ${cell(f.after)} |`;
  });
  const retried = records.filter((r) => r.attempts.length > 1).length;
  const retriedAnswers = Object.entries(v.retriedAnswers).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join(', ') || 'none';
  return `${runStamp()}; ${PER_SECOND} requests/s for ${Math.round((Math.max(...records.map((r) => r.start)) - Math.min(...records.map((r) => r.start))) / 1000)} s.

\`${closingLine(v)}\`

- Final answers: ${answers}. Requests that needed more than one try: ${retried}; the answers they were retried after: ${retriedAnswers}.
- Jobs in the read model: ${v.jobs}; finished: ${v.finished}; lost ${v.lost.length}, stuck ${v.stuck.length}, usage rows for jobs that did not succeed ${v.overcounted.length}, succeeded without a usage row ${v.uncounted.length}, succeeded without any caller answered with it ${v.unseen.length}.
- Free keys (cap ${v.quotas[0]?.cap ?? INCLUDED_DOCUMENTS.free}): ${v.quotas.map((q) => `${q.key} ${q.succeeded} succeeded, ${q.counted} counted`).join('; ')}.
- Callbacks: ${v.callbacks.delivered} of ${v.callbacks.expected} finished jobs with a webhook_url got one with a valid signature; ${v.callbacks.repeats} arrived more than once (same webhook-id, the job id).

Latency of requests by when they started (ms, p50 / p99 (requests); sync calls wait for their document, async ones for their 202; a request's time includes its retries):

| fault | lasted | 20 s before | during | 20 s after |
|---|---|---|---|---|
${rows.join('\n')}`;
}

async function main(): Promise<void> {
  const tls = selfSignedCertificate({ ips: ['10.231.0.61'] });
  say('starting the cluster');
  cluster = await startCluster({
    stateDir: path.join(stateDir, 'cluster'),
    say: (l) => say(`  ${l}`),
    giveUp: () => say('an app keeps crashing (see its log)'),
    appEnv: { NODE_EXTRA_CA_CERTS: tls.caFile, FOLIO_WEBHOOK_RETRY_DELAYS: '1,5,20' },
  });
  const c = cluster;
  const receiverHost = only(c.hosts, 'receiver');
  if (receiverHost.address !== '10.231.0.61') throw new Error('the receiver certificate names 10.231.0.61');

  const database = connect(c.env.DATABASE_URL!, { max: 1 });
  const seal = keySeal({ keySecret: undefined, keySecretFile: c.env.FOLIO_KEY_SECRET_FILE! });
  const keys: LoadConfig['keys'] = [];
  const keyNames = new Map<string, { name: string; key: string }>();
  for (const [name, plan] of [['paid1', 'paid'], ['paid2', 'paid'], ['free1', 'free'], ['free2', 'free']] as const) {
    const made = await createKey(database.db, seal, plan);
    keys.push({ name, key: made.key, plan });
    keyNames.set(made.id, { name, key: made.key });
  }
  await database.close();

  const callbacksFile = path.join(stateDir, 'receiver', 'callbacks.jsonl');
  await fsp.mkdir(path.dirname(callbacksFile), { recursive: true });
  writeFileSync(callbacksFile, '');
  const receiverConfig: ReceiverConfig = {
    address: receiverHost.address, port: PORTS.receiver, keyFile: tls.keyFile, certFile: tls.caFile, outFile: callbacksFile,
  };
  await runOnHost('receiver', receiverHost.netns, 'receiver.ts', receiverConfig);
  await pollUntil(async () => readFileSync(path.join(stateDir, 'receiver', 'receiver.log'), 'utf8').includes('listening'), 30_000);

  const recordsFile = path.join(stateDir, 'load', 'requests.jsonl');
  const loadConfig: LoadConfig = {
    url: c.url, keys, durationMs: 30 * 60_000, perSecond: PER_SECOND, webhookUrl: `https://${receiverHost.address}:${PORTS.receiver}`, outFile: recordsFile,
  };
  say(`load: ${PER_SECOND} requests/s through ${c.url}`);
  const load = await runOnHost('load', only(c.hosts, 'client').netns, 'load.ts', loadConfig);
  const windows = await faults(c);
  process.kill(load.pid, 'SIGTERM');
  say('faults done; load stopping (in-flight requests finish)');
  await load.exited;

  say('draining: waiting for every job to finish and every callback to arrive');
  const sql = postgres(c.env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
  await pollUntil(async () => (await sql`select count(*)::int as n from jobs where status not in ('succeeded', 'failed')`)[0]!.n === 0, 180_000);
  await pollUntil(async () => {
    const n = (await sql<{ n: number }[]>`select count(*)::int as n from jobs where webhook_url is not null and status in ('succeeded', 'failed')`)[0]!.n;
    const received = new Set(readFileSync(callbacksFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as ReceivedCallback).headers['webhook-id']));
    return received.size >= n;
  }, 120_000);
  await sql.end({ timeout: 2 });

  const records = readFileSync(recordsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RequestRecord);
  const gathered = await gather(c, keyNames, callbacksFile);
  const v = verdict({ records, ...gathered, faults: windows, freeCap: INCLUDED_DOCUMENTS.free });
  writeSection('chaos', 'npm run chaos (infra/cluster/chaos/run.ts)', report(v, windows, records), 'docs/scaling.md');
  for (const [what, ids] of [['lost', v.lost], ['stuck', v.stuck], ['counted twice', v.overcounted], ['uncounted', v.uncounted], ['succeeded unseen', v.unseen], ['callback missing', v.callbacks.missing]] as const) {
    if (ids.length) say(`${what}: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ' …' : ''}`);
  }
  process.stdout.write(`${closingLine(v)}\n`);
  await cleanUp();
  process.exit(v.ok ? 0 : 1);
}

main().catch(async (error: Error) => {
  process.stderr.write(`chaos: ${error.stack ?? error.message}\n`);
  await cleanUp().catch(() => undefined);
  process.exit(2);
});
