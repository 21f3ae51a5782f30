import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '@folio/keys';
import { freePort } from '../infra/services/index.ts';
import { parseExposition, promlintBuilt, lintExposition, samples, total, type Family } from './support/metrics.ts';
import { freshWindow } from './support/rate-windows.ts';
import { Receiver, selfSignedCertificate } from './support/receiver.ts';
import { Stack } from './support/stack.ts';

// What an operator's Prometheus sees of a stack that has done some of everything: sync and async jobs of several
// outputs, a failure, a callback, refusals for rate and quota. Each app's exposition is read by Prometheus' own
// parsers, and the figures are checked against what the test did.

let stack: Stack;
let receiver: Receiver;
let paid: string;
let free: string;
const ports = { renderer: 0, projector: 0, dispatcher: 0 };
const MARKDOWN = '# Metrics\n\nA paragraph with **bold** words.\n\n- one\n- two\n';
/** Label values no metric may carry: a job id, a key, a path with an id in it. */
const UNBOUNDED_VALUE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|folio_[A-Za-z0-9_-]{20,}|https?:\/\//;

beforeAll(async () => {
  const tls = selfSignedCertificate();
  [ports.renderer, ports.projector, ports.dispatcher] = await Promise.all([freePort(), freePort(), freePort()]);
  stack = await Stack.start({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // The interface's budgets a fiftieth: a free key may start one conversion a minute, a paid one twelve.
      FOLIO_RATE_LIMIT_SCALE: '0.02',
    },
    metricsPorts: ports,
  });
  [paid, free] = await Promise.all([stack.createKey('paid'), stack.createKey('free')]);
  receiver = await Receiver.start(tls);
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function scrape(url: string): Promise<{ text: string; families: Family[]; contentType: string | null }> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  const text = await response.text();
  return { text, families: await parseExposition(text), contentType: response.headers.get('content-type') };
}

const convert = (key: string, json: Record<string, unknown>) => stack.request('POST', '/v2/convert', { key, json });
const appMetrics = (app: keyof typeof ports) => `http://127.0.0.1:${ports[app]}/metrics`;

describe('metrics', () => {
  it('count and time what the stack did, in every app, as Prometheus parses them, with bounded labels', async () => {
    expect((await convert(paid, { markdown: MARKDOWN, output: 'html' })).status).toBe(200);
    expect((await convert(paid, { markdown: MARKDOWN, output: 'pdf' })).status).toBe(200);
    const failed = await convert(paid, { url: 'http://127.0.0.1:1/nothing-listens-here', output: 'text' });
    expect(failed.body.error.code).toBe('fetch_failed');
    const hook = receiver.answer('/metrics-hook', { status: 200 });
    const queued = await convert(paid, { markdown: MARKDOWN, output: 'text', async: true, webhook_url: `${receiver.origin}${hook}` });
    expect(queued.status).toBe(202);
    await receiver.waitFor(hook, 1);

    // A free key: its one conversion this minute, then the rate limit, both in one window.
    await freshWindow(15_000);
    expect((await convert(free, { markdown: MARKDOWN, output: 'text' })).status).toBe(200);
    expect((await convert(free, { markdown: MARKDOWN, output: 'text' })).status).toBe(429);
    // A free key whose month is used up.
    const spent = await stack.createKey('free');
    const [row] = await stack.sql<{ id: string }[]>`select id from api_keys where key_hash = ${hashKey(spent)}`;
    await stack.sql`insert into usage (job_id, key_id, period, ordinal, counted_at)
      select gen_random_uuid(), ${row!.id}, ${new Date().toISOString().slice(0, 7)}, n, now() from generate_series(1, 100) as n`;
    expect((await convert(spent, { markdown: MARKDOWN, output: 'text' })).body.error.code).toBe('quota_exceeded');

    // The API: on its public port, without a key.
    const api = await scrape(`${stack.url}/metrics`);
    expect(api.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const convertRoute = { route: '/v2/convert', method: 'POST' };
    expect(total(api.families, 'folio_http_request_duration_seconds_count', { ...convertRoute, status: '200', plan: 'paid' })).toBe(2);
    expect(total(api.families, 'folio_http_request_duration_seconds_count', { ...convertRoute, status: '202', plan: 'paid' })).toBe(1);
    expect(total(api.families, 'folio_http_request_duration_seconds_count', { ...convertRoute, status: '429', plan: 'free' })).toBe(1);
    expect(total(api.families, 'folio_http_request_duration_seconds_bucket', { ...convertRoute, status: '200', plan: 'paid', le: '+Inf' })).toBe(2);
    expect(total(api.families, 'folio_rate_limit_refusals_total', { limit: 'requests', plan: 'free' })).toBe(1);
    expect(total(api.families, 'folio_quota_refusals_total', { code: 'quota_exceeded', plan: 'free' })).toBe(1);
    expect(total(api.families, 'folio_jobs_accepted_total', { output: 'pdf', mode: 'sync', plan: 'paid' })).toBe(1);
    expect(total(api.families, 'folio_jobs_accepted_total', { output: 'text', mode: 'async', plan: 'paid' })).toBe(1);
    expect(total(api.families, 'folio_jobs_accepted_total')).toBe(5);
    expect(total(api.families, 'folio_kafka_produce_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(total(api.families, 'folio_postgres_pool_max_connections', { pool: 'sql' })).toBe(20);
    expect(samples(api.families, 'folio_postgres_pool_connections', { pool: 'sql' }).map((s) => s.labels.state).sort()).toEqual(['busy', 'connecting', 'idle', 'reserved']);
    expect(total(api.families, 'process_cpu_seconds_total')).toBeGreaterThan(0);

    // The renderer, on its own port: conversions by input, output and outcome; Chromium.
    const renderer = await scrape(appMetrics('renderer'));
    expect(total(renderer.families, 'folio_conversion_duration_seconds_count', { input: 'markdown', output: 'pdf', outcome: 'succeeded' })).toBe(1);
    expect(total(renderer.families, 'folio_conversion_duration_seconds_count', { input: 'url', output: 'text', outcome: 'failed' })).toBe(1);
    expect(total(renderer.families, 'folio_conversion_duration_seconds_count')).toBe(5);
    expect(total(renderer.families, 'folio_chromium_tabs')).toBeGreaterThanOrEqual(1);
    expect(total(renderer.families, 'folio_chromium_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
    expect(total(renderer.families, 'folio_kafka_produce_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);

    // The projector: jobs ended, their times, the meter, the flow of every group.
    const projector = await stack.until(async () => {
      const scraped = await scrape(appMetrics('projector'));
      return total(scraped.families, 'folio_jobs_finished_total') >= 5 ? scraped : undefined;
    }, 30_000, 'the projector to have seen every job end');
    expect(total(projector.families, 'folio_jobs_finished_total', { outcome: 'succeeded', output: 'pdf', lane: 'sync', code: '' })).toBe(1);
    expect(total(projector.families, 'folio_jobs_finished_total', { outcome: 'failed', output: 'text', lane: 'sync', code: 'fetch_failed' })).toBe(1);
    expect(total(projector.families, 'folio_jobs_finished_total', { outcome: 'succeeded', lane: 'async' })).toBe(1);
    expect(total(projector.families, 'folio_documents_counted_total')).toBe(4);
    expect(total(projector.families, 'folio_job_queued_seconds_count')).toBe(5);
    expect(total(projector.families, 'folio_job_rendering_seconds_count', { output: 'pdf', outcome: 'succeeded' })).toBe(1);
    expect(total(projector.families, 'folio_parked_events')).toBe(0);
    const lag = samples(projector.families, 'folio_consumer_lag');
    const groups = new Set(lag.map((s) => s.labels.group));
    expect([...groups].sort()).toEqual(samples(projector.families, 'folio_consumer_group_members').map((s) => s.labels.group).sort());
    // The projector's group on three topics, each renderer group on one: 4 partitions a topic in the suite's stacks.
    expect(groups.size).toBe(3);
    expect(lag).toHaveLength((3 + 1 + 1) * 4);
    for (const s of lag) expect(s.labels.partition).toMatch(/^[0-3]$/);
    for (const group of groups) expect(total(projector.families, 'folio_consumer_group_members', { group: group! })).toBeGreaterThanOrEqual(1);

    // The dispatcher: the callback, delivered once.
    const dispatcher = await scrape(appMetrics('dispatcher'));
    expect(total(dispatcher.families, 'folio_callback_attempt_duration_seconds_count', { outcome: 'delivered' })).toBe(1);
    expect(total(dispatcher.families, 'folio_callback_attempt_duration_seconds_count')).toBe(1);

    for (const { families } of [api, renderer, projector, dispatcher]) {
      for (const sample of families.flatMap((f) => f.samples)) {
        for (const value of Object.values(sample.labels)) expect(value, `${sample.name} ${JSON.stringify(sample.labels)}`).not.toMatch(UNBOUNDED_VALUE);
      }
    }

    // Prometheus' linter (what promtool check metrics runs) on Folio's own families: Node's process metrics are
    // prom-client's, named as it names them (its nodejs_active_handles_total is a gauge, which the linter refuses).
    expect(promlintBuilt(), 'promlint: `npm test` builds it from the Go module proxy (infra/promlint)').toBe(true);
    for (const { text } of [api, renderer, projector, dispatcher]) {
      const lint = await lintExposition(text, (family) => family.startsWith('folio_'));
      expect(lint.problems).toBe('');
      expect(lint.code).toBe(0);
    }
  });

  it('serves nothing but GET /metrics on a port of their own', async () => {
    expect((await fetch(`http://127.0.0.1:${ports.renderer}/`)).status).toBe(404);
    expect((await fetch(appMetrics('renderer'), { method: 'POST' })).status).toBe(404);
  });

  it('can be kept off the API\'s public port: then they are on the port named, and the public /metrics is unknown', async () => {
    const [apiPort, metricsPort] = await Promise.all([freePort(), freePort()]);
    const second = stack.spawn('api', { FOLIO_PORT: String(apiPort), FOLIO_PUBLIC_URL: `http://127.0.0.1:${apiPort}`, FOLIO_METRICS_PORT: String(metricsPort) });
    await stack.until(async () => (await fetch(`http://127.0.0.1:${apiPort}/healthz`).catch(() => null))?.ok, 60_000, 'the second API');
    // Like any path the API does not have: 404 to a key, 401 without one.
    expect((await fetch(`http://127.0.0.1:${apiPort}/metrics`, { headers: { authorization: `Bearer ${paid}` } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${apiPort}/metrics`)).status).toBe(401);
    const own = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(total(own.families, 'folio_http_request_duration_seconds_count', { route: '/healthz', status: '200', plan: 'none' })).toBeGreaterThanOrEqual(1);
    await second.stop();
  });
});
