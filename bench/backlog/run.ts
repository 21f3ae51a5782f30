// bench/backlog: does the sync lane stay its own while an async backlog drains? Sync markdown→html calls, one after
// another, first with nothing else to do (the baseline of the same run), then while BENCH_BACKLOG async pdf jobs
// (default 1,000; the ~1,500-word article as supplied HTML) are queued and drained by the same renderer.
// Target (issue 21): the sync calls' p95 during the drain ≤ 1 s.
// Run: npm run bench:backlog  (starts its own services under .folio/bench; writes its section of docs/benchmarks.md)
import { markdownToHtml } from '@folio/conversion';
import { BENCH_PORTS } from '../ports.ts';
import { resolve } from 'node:path';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from '../pipeline/markdown.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';
import { percentile } from '../stats.ts';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 1000);
const BASELINE_CALLS = Number(process.env.BENCH_SYNC_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const log = (line: string) => process.stderr.write(`${line}\n`);

const markdown = sampleArticle(1500);
const html = markdownToHtml(markdown);

const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: (line) => log(`[infra] ${line}`) });
let stack: Stack | null = null;
try {
  stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT_SCALE: '1000' } });
  const key = await stack.createKey('paid');
  const sync = async (): Promise<number> => {
    const t0 = performance.now();
    const answer = await stack!.request('POST', '/v2/convert', { key, json: { markdown, output: 'html' } });
    if (answer.status !== 200) throw new Error(`sync call failed: ${answer.status} ${answer.text.slice(0, 200)}`);
    return performance.now() - t0;
  };
  const queuePdf = async () => {
    const answer = await stack!.request('POST', '/v2/convert', { key, json: { html, output: 'pdf', async: true } });
    if (answer.status !== 202) throw new Error(`async call failed: ${answer.status} ${answer.text.slice(0, 200)}`);
  };
  const finished = async () =>
    (await stack!.sql<{ n: number }[]>`select count(*)::int as n from jobs where output = 'pdf' and status in ('succeeded', 'failed')`)[0]!.n;

  // Warm: the JVMs' request paths (see bench/pipeline) and the renderer's browser.
  for (let i = 0; i < WARMUP; i++) await sync();
  await Promise.all(Array.from({ length: 8 }, () => queuePdf()));
  await stack.until(async () => (await finished()) >= 8, 120_000, 'the warm-up pdfs');

  const idle: number[] = [];
  for (let i = 0; i < BASELINE_CALLS; i++) idle.push(await sync());

  // The backlog, queued as fast as the API takes it (8 in flight), while sync calls go on one after another.
  const before = await finished();
  const queueing = (async () => {
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < BACKLOG) {
        next++;
        await queuePdf();
      }
    }));
  })();
  const t0 = performance.now();
  const during: number[] = [];
  let done = 0;
  while (done < BACKLOG) {
    during.push(await sync());
    if (during.length % 10 === 0) done = (await finished()) - before;
  }
  await queueing;
  const drainSeconds = (performance.now() - t0) / 1000;
  const [p50, p95, max] = [percentile(during, 50), percentile(during, 95), Math.max(...during)];
  log(`sync during the drain: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (${during.length} calls); ${BACKLOG} pdfs in ${drainSeconds.toFixed(0)} s`);

  writeSection('backlog', 'bench/backlog/run.ts', `${runStamp()}: sync markdown→html calls (~1,500 words), one after another, with no other work and then while ${BACKLOG.toLocaleString('en')} async pdf jobs (the same article as supplied HTML) are queued and drained by the same renderer (one renderer process, its default 4 render slots and the one it keeps for sync jobs, on this machine's 2 cores).

| sync markdown→html | calls | p50 | p95 | slowest |
|---|---|---|---|---|
| nothing else to do (baseline) | ${idle.length} | ${percentile(idle, 50).toFixed(0)} ms | ${percentile(idle, 95).toFixed(0)} ms | ${Math.max(...idle).toFixed(0)} ms |
| while ${BACKLOG.toLocaleString('en')} async pdfs drain (${(BACKLOG / drainSeconds).toFixed(1)} pdfs/s, ${drainSeconds.toFixed(0)} s) | ${during.length} | ${p50.toFixed(0)} ms | ${p95.toFixed(0)} ms | ${max.toFixed(0)} ms |

Target: sync p95 during the drain ≤ 1 s — ${verdict(p95 <= 1000)} (${(p95 / percentile(idle, 95)).toFixed(1)}× the baseline's p95).`);
} finally {
  await stack?.stop();
  await infra.stop();
}
