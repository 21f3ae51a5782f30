// bench/http: the API's HTTP paths under load, next to a bare Fastify route on the same machine in the same run.
//   (a) a bare Fastify route answering the same body as a poll (the ceiling on this machine);
//   (b) polling GET /v2/jobs/{id}: finished jobs of many paid keys, so the per-key poll budget (600 a minute) does
//       not decide the figure; 429s, if any, are counted apart, and the verdict says the budgets bound the figure;
//   (c) synchronous markdown→text through POST /v2/convert (HTTP, Kafka, renderer, projector, Postgres);
//   (d) polling queued jobs (the renderer stopped), which are re-read at most once a second or when they change.
// req/s and p50/p99 latency from autocannon. Writes its section of docs/benchmarks.md, stamped with date and commit.
// Run: npm run bench:http  (starts its own services under .folio/bench unless KAFKA_BROKERS etc. are set;
// BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_KEYS adjust it)
import { BENCH_PORTS } from '../ports.ts';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { startJob } from '../../tests/support/jobs.ts';
import { sampleArticle } from '../pipeline/markdown.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';
import { keyedJson } from '../http-client.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SYNC_CONNECTIONS = 8;
/**
 * Keys polled in turn. Enough that their budgets (600 polls a minute each) outlast the warm-up and the run at the
 * rates a fast hour reaches: 400 keys did until one hour answered ~28,000 polls a second, 16,000 of them 429s.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 2000);
const ROOT = resolve(import.meta.dirname, '../..');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Target {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Figures {
  label: string;
  perSecond: number;
  p50: number;
  p99: number;
  ok: number;
  limited: number;
  other: number;
}

/**
 * What the verdict must add when polls met 429s: the keys' budgets, not the API, then capped the answered rate, and
 * the figure says nothing of the API's capacity until BENCH_KEYS is raised.
 */
function budgetsBound(polls: Figures[]): string {
  const limited = polls.filter((f) => f.limited > 0);
  if (limited.length === 0) return '';
  return ` Not a measure of the API: ${limited.map((f) => `"${f.label}" met ${f.limited} 429s`).join(', ')}, so the keys' poll budgets capped the answered rate; raise BENCH_KEYS (${KEYS} now).`;
}

/** Runs autocannon over `targets` (taken in turn by every connection as it sends its next request). */
async function load(label: string, url: string, targets: Target[], connections: number, seconds: number): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, ...targets[next++ % targets.length] }) }],
  });
  const count = (code: string) => result.statusCodeStats[code as keyof typeof result.statusCodeStats]?.count ?? 0;
  const ok = count('200');
  const limited = count('429');
  const figures = {
    label,
    perSecond: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    limited,
    other: result.requests.total - ok - limited + result.errors,
  };
  log(`${label}: ${figures.perSecond.toFixed(0)} answered/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms (429: ${limited}, other: ${figures.other})`);
  return figures;
}

async function startBare(body: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [resolve(ROOT, 'bench/http/bare.ts')], {
    cwd: ROOT,
    env: { ...process.env, BARE_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await new Promise<string[]>((done) => createInterface({ input: child.stdout! }).once('line', (l) => done([l])));
  return { url: `http://127.0.0.1:${line!.trim()}`, stop: () => child.kill('SIGTERM') };
}

const infra = await startLocalInfra({
  stateDir: resolve('.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: (line) => log(`[infra] ${line}`),
});
let started: Stack | null = null;
let bare: { url: string; stop(): void } | null = null;
try {
  // The interface's own limits (test stacks raise them a hundredfold): polling spreads over enough keys instead.
  const stack = await Stack.start({ infra: infra.env, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT_SCALE: '1' } });
  started = stack;
  // Many keys, one finished job each: a poll picks the next key in turn.
  const keys = await Promise.all(Array.from({ length: KEYS }, () => stack.createKey('paid')));
  const jobs: string[] = [];
  for (let i = 0; i < keys.length; i += 16) {
    jobs.push(...(await Promise.all(keys.slice(i, i + 16).map((key, j) => startJob(stack, key, `# Job ${i + j}\n\nA short *document*.`)))));
  }
  await stack.until(async () => {
    const [{ done }] = (await stack.sql`select count(*)::int as done from jobs where job_id in ${stack.sql(jobs)} and status = 'succeeded'`) as unknown as [{ done: number }];
    return done === jobs.length;
  }, 600_000, 'the jobs to finish');
  const polls: Target[] = jobs.map((id, i) => ({ method: 'GET', path: `/v2/jobs/${id}`, headers: { authorization: `Bearer ${keys[i]}` } }));
  const sample = await stack.request('GET', polls[0]!.path, { key: keys[0] });
  bare = await startBare(sample.text);

  const markdown = sampleArticle(1500);
  const converts: Target[] = keys.map((key) => ({
    method: 'POST',
    path: '/v2/convert',
    headers: keyedJson(key),
    body: JSON.stringify({ markdown, output: 'text' }),
  }));

  // Warm both servers (JIT, connection pools, the caches) before anything is measured.
  await load('warm-up bare', bare.url, [{ method: 'GET', path: '/bare', headers: {} }], CONNECTIONS, 3);
  await load('warm-up polls', stack.url, polls, CONNECTIONS, 3);
  await load('warm-up sync', stack.url, converts, SYNC_CONNECTIONS, 3);

  const results = [
    await load('bare Fastify route, same body', bare.url, [{ method: 'GET', path: '/bare', headers: {} }], CONNECTIONS, SECONDS),
    await load(`GET /v2/jobs/{id}, finished jobs of ${KEYS} keys`, stack.url, polls, CONNECTIONS, SECONDS),
    await load('POST /v2/convert, sync markdown→text (~1,500 words)', stack.url, converts, SYNC_CONNECTIONS, SECONDS),
  ];

  // Unfinished jobs, as clients mostly poll them: with the renderer stopped, fresh jobs of other keys stay queued.
  await Promise.all(stack.running('renderer').map((renderer) => renderer.stop()));
  const waitingKeys = await Promise.all(Array.from({ length: KEYS }, () => stack.createKey('paid')));
  const waiting: Target[] = [];
  for (let i = 0; i < waitingKeys.length; i += 16) {
    const batch = waitingKeys.slice(i, i + 16);
    const ids = await Promise.all(batch.map((key) => startJob(stack, key, 'waits')));
    ids.forEach((id, j) => waiting.push({ method: 'GET', path: `/v2/jobs/${id}`, headers: { authorization: `Bearer ${batch[j]}` } }));
  }
  await load('warm-up unfinished polls', stack.url, waiting, CONNECTIONS, 3);
  results.push(await load(`GET /v2/jobs/{id}, queued jobs of ${KEYS} other keys`, stack.url, waiting, CONNECTIONS, SECONDS));

  const row = (f: Figures, connections: number) =>
    `| ${f.label} | ${connections} | ${f.perSecond.toFixed(0)} | ${f.p50} ms | ${f.p99} ms | ${f.limited} | ${f.other} |`;
  writeSection('http', 'bench/http/run.ts', `${runStamp()}, ${SECONDS} s each after 3 s of warm-up, autocannon in the bench's own process:

| path | connections | answered/s (200) | p50 | p99 | 429 | other |
|---|---|---|---|---|---|---|
${row(results[0]!, CONNECTIONS)}
${row(results[1]!, CONNECTIONS)}
${row(results[3]!, CONNECTIONS)}
${row(results[2]!, SYNC_CONNECTIONS)}

Polling target ≥ 5,000/s on one API process with auth and limits on (the interface's budgets): finished jobs ${verdict(results[1]!.perSecond >= 5000)}, queued jobs ${verdict(results[3]!.perSecond >= 5000)} (${(results[1]!.perSecond / results[0]!.perSecond * 100).toFixed(0)} % and ${(results[3]!.perSecond / results[0]!.perSecond * 100).toFixed(0)} % of the bare route's rate).${budgetsBound([results[1]!, results[3]!])}`);
} finally {
  bare?.stop();
  await started?.stop();
  await infra.stop();
}
