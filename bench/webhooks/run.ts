// bench/webhooks: job-finished callbacks under load, half of them to a slow receiver.
//   2,000 async markdown→text jobs, each with a webhook_url on one of two local https receivers: a fast one that
//   answers at once and a slow one that answers after 2 s. Reported: callbacks delivered per second (first job
//   accepted to last callback received), and the latency from the job's finish (finished_at in the body) to the
//   callback's arrival, for fast and slow receivers apart.
//   Two runs in the same process, with the same stack: the baseline is the dispatcher without per-host fairness
//   (FOLIO_WEBHOOK_HOST_CONCURRENCY = FOLIO_WEBHOOK_CONCURRENCY, so the slow receiver may take every slot), then
//   the dispatcher as configured by default. Writes its section of docs/benchmarks.md, stamped with date and commit.
// Run: npm run bench:webhooks  (starts its own services under .folio/bench; BENCH_CALLBACKS, BENCH_SLOW_MS adjust it)
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { loadConfig } from '@folio/config';
import { startLocalInfra } from '../../infra/local.ts';
import { Receiver, selfSignedCertificate } from '../../tests/support/receiver.ts';
import { Stack } from '../../tests/support/stack.ts';
import { percentile } from '../stats.ts';
import { runStamp, writeSection } from '../docs-section.ts';

const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 2000);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 2000);
const SUBMITTERS = 32;
const log = (line: string) => process.stderr.write(`${line}\n`);
const defaults = loadConfig({});

interface Figures {
  label: string;
  concurrency: number;
  perHost: number;
  seconds: number;
  perSecond: number;
  fast: { p50: number; p95: number; lastS: number };
  slow: { p50: number; p95: number; lastS: number };
}

const infra = await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: (line) => log(`[infra] ${line}`),
});
const tls = selfSignedCertificate();
let stack: Stack | null = null;
const receivers: Receiver[] = [];
try {
  stack = await Stack.start({
    infra: infra.env,
    env: {
      FOLIO_LOG_LEVEL: 'warn',
      NODE_EXTRA_CA_CERTS: tls.caFile,
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // Submitting 2,000 jobs a run from one key is the bench's doing, not what it measures.
      FOLIO_RATE_LIMIT_SCALE: '1000',
    },
    without: ['dispatcher'],
  });
  const fast = await Receiver.start(tls);
  const slow = await Receiver.start(tls);
  receivers.push(fast, slow);

  const run = async (label: string, concurrency: number, perHost: number, count = CALLBACKS): Promise<Figures> => {
    const dispatcher = stack!.spawn('dispatcher', {
      FOLIO_WEBHOOK_CONCURRENCY: String(concurrency),
      FOLIO_WEBHOOK_HOST_CONCURRENCY: String(perHost),
    });
    await stack!.waitReady();
    const key = await stack!.createKey('paid');
    const fastPath = fast.answer(`/${label}`, { status: 200 });
    const slowPath = slow.answer(`/${label}`, { status: 200, delayMs: SLOW_MS });
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: SUBMITTERS }, async () => {
        for (let i = next++; i < count; i = next++) {
          const receiver = i % 2 === 0 ? fast : slow;
          const path = i % 2 === 0 ? fastPath : slowPath;
          const response = await stack!.request('POST', '/v2/convert', {
            key,
            json: { markdown: `# Callback ${i}\n\nA short document.`, output: 'text', async: true, webhook_url: `${receiver.origin}${path}` },
          });
          if (response.status !== 202) throw new Error(`job not accepted: ${response.status} ${response.text}`);
        }
      }),
    );
    log(`${label}: ${count} jobs accepted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const fastOnes = await fast.waitFor(fastPath, count / 2, 900_000);
    const slowOnes = await slow.waitFor(slowPath, count / 2, 900_000);
    const latency = (callbacks: typeof fastOnes) => {
      const ms = callbacks.map((c) => c.at - Date.parse(JSON.parse(c.body.toString('utf8')).finished_at));
      return { p50: percentile(ms, 50), p95: percentile(ms, 95), lastS: (Math.max(...callbacks.map((c) => c.at)) - started) / 1000 };
    };
    const last = Math.max(...[...fastOnes, ...slowOnes].map((c) => c.at));
    const seconds = (last - started) / 1000;
    await dispatcher.stop();
    const figures = { label, concurrency, perHost, seconds, perSecond: count / seconds, fast: latency(fastOnes), slow: latency(slowOnes) };
    log(
      `${label}: ${figures.perSecond.toFixed(1)} callbacks/s over ${seconds.toFixed(1)} s; fast p50 ${figures.fast.p50} ms p95 ${figures.fast.p95} ms (last at ${figures.fast.lastS} s); slow p50 ${figures.slow.p50} ms p95 ${figures.slow.p95} ms`,
    );
    return figures;
  };

  // A short warm-up run (JIT, connections, the registry's schema ids), not reported.
  await run('warm-up', defaults.webhookConcurrency, defaults.webhookHostConcurrency, 200);
  const baseline = await run('baseline-no-fairness', defaults.webhookConcurrency, defaults.webhookConcurrency);
  const folio = await run('folio-default', defaults.webhookConcurrency, defaults.webhookHostConcurrency);

  const row = (f: Figures, name: string) =>
    `| ${name} | ${f.concurrency} / ${f.perHost} | ${f.perSecond.toFixed(1)} | ${f.fast.p50} ms | ${f.fast.p95} ms | ${f.fast.lastS.toFixed(1)} s | ${f.slow.p50} ms | ${f.slow.p95} ms | ${f.slow.lastS.toFixed(1)} s |`;
  writeSection('webhooks', 'bench/webhooks/run.ts', `${runStamp()}: ${CALLBACKS} async markdown→text jobs a run, half to a receiver answering at once, half to one answering after ${SLOW_MS / 1000} s, one dispatcher process:

| dispatcher | slots / per host | callbacks/s | fast p50 | fast p95 | last fast | slow p50 | slow p95 | last slow |
|---|---|---|---|---|---|---|---|---|
${row(baseline, 'without per-host fairness (baseline)')}
${row(folio, 'Folio default')}

Latency is from the job's finished_at to the callback's arrival; "last" is seconds from the first job accepted to that receiver's last callback.`);
} finally {
  for (const receiver of receivers) await receiver.close();
  await stack?.stop();
  await infra.stop();
}
