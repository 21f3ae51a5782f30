import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver, selfSignedCertificate } from './support/receiver.ts';
import { Stack } from './support/stack.ts';

/**
 * The operator's endpoints beyond the interface, against the real stack: a job's history from the log
 * (GET /v2/jobs/{id}/events), the key's jobs (GET /v2/jobs), the usage ledger (GET /v2/usage), reruns and callbacks
 * sent again. The synchronous ceiling is 1 s and every render takes 1.5 s more, so a synchronous call times out and
 * its late success is in the log; callbacks go to a real https receiver on loopback.
 */
let stack: Stack;
let receiver: Receiver;
let key: string;
/** Another key, whose jobs the first never sees. */
let other: string;

beforeAll(async () => {
  const tls = selfSignedCertificate();
  stack = await Stack.start({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
      FOLIO_SYNC_TIMEOUT: '1',
      FOLIO_FAULT_RENDER_DELAY_MS: '1500',
      FOLIO_WEBHOOK_TIMEOUT: '2',
    },
  });
  [key, other] = await Promise.all([stack.createKey('free'), stack.createKey('free')]);
  receiver = await Receiver.start(tls);
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function startJob(json: Record<string, unknown>, withKey = key): Promise<string> {
  const response = await stack.request('POST', '/v2/convert', { key: withKey, json: { async: true, ...json } });
  expect(response.status, response.text).toBe(202);
  return response.body.job_id;
}

/** Every entry of a job's history, page by page. */
async function eventsOf(jobId: string, limit = 100, withKey = key): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await stack.request('GET', `/v2/jobs/${jobId}/events?${query}`, { key: withKey });
    expect(page.status, page.text).toBe(200);
    expect(page.body.job_id).toBe(jobId);
    entries.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return entries;
}

async function eventsUntil(jobId: string, done: (entries: any[]) => boolean, what: string): Promise<any[]> {
  return stack.until(async () => {
    const entries = await eventsOf(jobId);
    return done(entries) && entries;
  }, 30_000, what);
}

function expectSigned(body: Buffer, headers: Record<string, unknown>, jobId: string): void {
  expect(headers['x-folio-job-id']).toBe(jobId);
  expect(headers['x-folio-signature']).toBe(`sha256=${createHmac('sha256', key).update(body).digest('hex')}`);
  const signed = `${jobId}.${headers['webhook-timestamp']}.${body.toString('utf8')}`;
  expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
}

let webhookJob: string;

describe('GET /v2/jobs/{id}/events', () => {
  it('tells a job’s history in order, each entry with its time and its place in the log', async () => {
    const path = receiver.answer('/events', { status: 200 });
    webhookJob = await startJob({ markdown: '# History\n\nOf a job.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    await receiver.waitFor(path, 1);
    const entries = await eventsUntil(webhookJob, (e) => e.some((x) => x.kind === 'webhook_attempt'), 'the callback attempt in the history');

    expect(entries.map((e) => e.kind)).toEqual(['queued', 'processing', 'succeeded', 'webhook_attempt']);
    const [queued, processing, succeeded, attempt] = entries;
    expect(queued).toMatchObject({ event_type: 'JobQueued', lane: 'async', output: 'text', input: 'markdown', rerun_of: null, effective: true });
    expect(queued.webhook_url).toBe(`${receiver.origin}${path}`);
    expect(queued.topic).toBe(`${stack.namespace}.folio.jobs.queued.async`);
    expect(processing).toMatchObject({ event_type: 'JobProcessing', attempt: 1, effective: true });
    const [renderer] = stack.running('renderer');
    expect(processing.worker).toMatch(new RegExp(`/${renderer!.child.pid}$`));
    expect(succeeded).toMatchObject({ event_type: 'JobSucceeded', attempt: 1, worker: processing.worker, effective: true });
    expect(succeeded.duration_ms).toBeGreaterThanOrEqual(1500);
    expect(attempt).toMatchObject({ event_type: 'WebhookDeliveryAttempted', attempt: 1, status_code: 200, error: null, outcome: 'delivered' });
    expect(attempt.url).toBe(`${receiver.origin}${path}`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    for (const entry of entries.slice(1)) expect(entry.topic).toBe(`${stack.namespace}.folio.jobs.lifecycle`);

    // Every entry is where the projection says it was read, with the time its writer gave it.
    const rows = await stack.sql`select event_id, occurred_at, topic, partition, "offset" from job_history where job_id = ${webhookJob}`;
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const entry = entries.find((e) => e.event_id === row.event_id);
      expect(entry).toMatchObject({ topic: row.topic, partition: row.partition, offset: Number(row.offset), occurred_at: row.occurred_at.toISOString() });
    }
    const times = entries.map((e) => Date.parse(e.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // One page at a time, the same entries in the same order.
    expect(await eventsOf(webhookJob, 1)).toEqual(entries);
  });

  it('shows a late outcome after the synchronous ceiling as ignored', async () => {
    const response = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'slow', output: 'markdown' } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('render_timeout');
    const failed = await stack.request('GET', '/v2/jobs?status=failed', { key });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.data).toHaveLength(1);
    const jobId = failed.body.data[0].job_id;

    const entries = await eventsUntil(jobId, (e) => e.some((x) => x.kind === 'succeeded'), 'the late success');
    expect(entries.map((e) => [e.kind, e.effective])).toEqual([
      ['queued', true],
      ['processing', true],
      ['failed', true],
      ['succeeded', false],
    ]);
    expect(entries[2]).toMatchObject({ worker: 'api', attempt: null, error: { code: 'render_timeout', retryable: true } });
    expect(entries[0]).toMatchObject({ lane: 'sync', topic: `${stack.namespace}.folio.jobs.queued.sync` });
  });

  it('answers a job it was just given, like GET /v2/jobs/{id}: a read right after the 202 waits for the projection', async () => {
    const jobId = await startJob({ markdown: '# asked at once', output: 'text' });
    const page = await stack.request('GET', `/v2/jobs/${jobId}/events`, { key });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data[0]).toMatchObject({ kind: 'queued' });
  });

  it('answers with the interface’s errors: no key, another key’s job, a malformed id, a bad cursor', async () => {
    expect((await stack.request('GET', `/v2/jobs/${webhookJob}/events`)).body.error.code).toBe('api_key_required');
    const foreign = await stack.request('GET', `/v2/jobs/${webhookJob}/events`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 'failed', error: { code: 'job_not_found', retryable: false } });
    const malformed = await stack.request('GET', '/v2/jobs/not-a-uuid/events', { key });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.errors).toEqual([expect.objectContaining({ parameter: 'id' })]);
    const cursor = await stack.request('GET', `/v2/jobs/${webhookJob}/events?cursor=bm9wZQ&limit=101`, { key });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('invalid_parameters');
    expect(cursor.body.error.errors.map((e: any) => e.parameter)).toEqual(['limit']);
    const badCursor = await stack.request('GET', `/v2/jobs/${webhookJob}/events?cursor=bm9wZQ`, { key });
    expect(badCursor.body.error.errors).toEqual([expect.objectContaining({ parameter: 'cursor' })]);
    // The key in the query string works as on GET /v2/jobs/{id}.
    expect((await stack.request('GET', `/v2/jobs/${webhookJob}/events?api_key=${key}`)).status).toBe(200);
  });
});

describe('GET /v2/jobs and GET /v2/usage', () => {
  let lister: string;
  let jobs: string[];

  beforeAll(async () => {
    lister = await stack.createKey('free');
    jobs = [];
    for (const [markdown, output] of [['# One', 'text'], ['# Two', 'html'], ['# Three', 'markdown']]) jobs.push(await startJob({ markdown, output }, lister));
    await Promise.all(jobs.map((id) => stack.waitForJob(lister, id)));
  });

  it('lists the key’s jobs newest first, each byte for byte what GET /v2/jobs/{id} returns, page by page', async () => {
    const all = await stack.request('GET', '/v2/jobs', { key: lister });
    expect(all.status, all.text).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data.map((j: any) => j.job_id)).toEqual([...jobs].reverse());
    for (const job of all.body.data) {
      const single = await stack.request('GET', `/v2/jobs/${job.job_id}`, { key: lister });
      expect(all.text).toContain(single.text);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await stack.request('GET', `/v2/jobs?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: lister });
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((j: any) => j.job_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...jobs].reverse());
    // Another key's listing holds none of them.
    const others = await stack.request('GET', '/v2/jobs?limit=100', { key: other });
    expect(others.body.data.map((j: any) => j.job_id)).not.toContain(jobs[0]);
  });

  it('filters by status, output and creation time', async () => {
    const ids = async (query: string) => {
      const response = await stack.request('GET', `/v2/jobs?${query}`, { key: lister });
      expect(response.status, response.text).toBe(200);
      return response.body.data.map((j: any) => j.job_id);
    };
    expect(await ids('output=html')).toEqual([jobs[1]]);
    expect(await ids('status=succeeded&output=markdown')).toEqual([jobs[2]]);
    expect(await ids('status=failed')).toEqual([]);
    const created = await Promise.all(jobs.map(async (id) => (await stack.request('GET', `/v2/jobs/${id}`, { key: lister })).body.created_at));
    expect(await ids(`created_after=${encodeURIComponent(created[1])}`)).toEqual([jobs[2], jobs[1]]);
    expect(await ids(`created_before=${encodeURIComponent(created[1])}`)).toEqual([jobs[0]]);
    expect(await ids(`created_after=${encodeURIComponent(created[0])}&created_before=${encodeURIComponent(created[2])}&limit=100`)).toEqual([jobs[1], jobs[0]]);
  });

  it('refuses bad filters with invalid_parameters naming each', async () => {
    const response = await stack.request('GET', '/v2/jobs?status=done&output=exe&created_after=yesterday&limit=0', { key: lister });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_parameters');
    expect(response.body.error.errors.map((e: any) => e.parameter).sort()).toEqual(['created_after', 'limit', 'output', 'status']);
    const cursor = await stack.request('GET', '/v2/jobs?cursor=WyJ4Il0', { key: lister });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.errors).toEqual([expect.objectContaining({ parameter: 'cursor' })]);
  });

  it('lists the documents that counted in a month, from the meter', async () => {
    const period = new Date().toISOString().slice(0, 7);
    const ledger = await stack.request('GET', '/v2/usage', { key: lister });
    expect(ledger.status, ledger.text).toBe(200);
    expect(ledger.body).toMatchObject({ period, usage: { used_this_period: 3, included: 100, plan: 'free' }, next_cursor: null });
    // In the order they were counted (their successes), which need not be the order they were started in.
    expect(ledger.body.data.map((d: any) => d.ordinal)).toEqual([1, 2, 3]);
    const outputs = Object.fromEntries(ledger.body.data.map((d: any) => [d.job_id, d.output]));
    expect(outputs).toEqual({ [jobs[0]!]: 'text', [jobs[1]!]: 'html', [jobs[2]!]: 'markdown' });
    for (const entry of ledger.body.data) {
      const job = (await stack.request('GET', `/v2/jobs/${entry.job_id}`, { key: lister })).body;
      expect(entry.counted_at).toBe(job.finished_at);
      expect(job.result.usage.used_this_period).toBe(entry.ordinal);
    }
    const first = await stack.request('GET', `/v2/usage?period=${period}&limit=2`, { key: lister });
    expect(first.body.data).toHaveLength(2);
    const second = await stack.request('GET', `/v2/usage?period=${period}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: lister });
    expect([...first.body.data, ...second.body.data]).toEqual(ledger.body.data);
    expect(second.body.next_cursor).toBeNull();

    const old = await stack.request('GET', '/v2/usage?period=2020-01', { key: lister });
    expect(old.body).toMatchObject({ period: '2020-01', usage: { used_this_period: 0 }, data: [], next_cursor: null });
    const bad = await stack.request('GET', '/v2/usage?period=2026-13', { key: lister });
    expect(bad.status).toBe(400);
    expect(bad.body.error.errors).toEqual([expect.objectContaining({ parameter: 'period' })]);
  });
});

describe('POST /v2/jobs/{id}/rerun', () => {
  it('starts a new job with the same request, linked both ways, counted only when it succeeds', async () => {
    const rerunner = await stack.createKey('free');
    const original = await startJob({ markdown: '# Again\n\nThe same words.', output: 'html', title: 'Twice' }, rerunner);
    const first = await stack.waitForJob(rerunner, original);

    const response = await stack.request('POST', `/v2/jobs/${original}/rerun`, { key: rerunner });
    expect(response.status, response.text).toBe(202);
    const rerun = response.body.job_id;
    expect(rerun).not.toBe(original);
    expect(response.body).toMatchObject({ status: 'queued', status_url: `${stack.url}/v2/jobs/${rerun}` });
    expect(response.headers.get('location')).toBe(response.body.status_url);
    const second = await stack.waitForJob(rerunner, rerun);
    expect(second.status).toBe('succeeded');
    expect(second.result.content).toBe(first.result.content);
    expect(second.result.usage.used_this_period).toBe(2);

    const [queued] = await eventsOf(rerun, 100, rerunner);
    expect(queued).toMatchObject({ kind: 'queued', rerun_of: original, lane: 'async', output: 'html' });
    const history = await eventsOf(original, 100, rerunner);
    expect(history.map((e) => e.kind)).toEqual(['queued', 'processing', 'succeeded', 'rerun']);
    expect(history[3]).toMatchObject({ rerun_job_id: rerun, event_id: queued.event_id, offset: queued.offset, topic: queued.topic });

    // A rerun that fails is free, like any failed job.
    const unreachable = await startJob({ url: 'http://127.0.0.1:9/article', output: 'text' }, rerunner);
    expect((await stack.waitForJob(rerunner, unreachable)).status).toBe('failed');
    const failedRerun = await stack.request('POST', `/v2/jobs/${unreachable}/rerun`, { key: rerunner });
    expect(failedRerun.status).toBe(202);
    expect((await stack.waitForJob(rerunner, failedRerun.body.job_id)).error.code).toBe('fetch_failed');
    const ledger = await stack.request('GET', '/v2/usage', { key: rerunner });
    expect(ledger.body.data.map((d: any) => d.job_id)).toEqual([original, rerun]);

    const foreign = await stack.request('POST', `/v2/jobs/${original}/rerun`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('job_not_found');
  });
});

describe('POST /v2/jobs/{id}/webhook/redeliver', () => {
  it('sends the callback once more through the dispatcher, signed, and records it in the history', async () => {
    const path = '/events';
    const before = receiver.at(path).length;
    const response = await stack.request('POST', `/v2/jobs/${webhookJob}/webhook/redeliver`, { key });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({ status: 'queued', job_id: webhookJob, events_url: `${stack.url}/v2/jobs/${webhookJob}/events` });

    const received = await receiver.waitFor(path, before + 1);
    const [firstCallback, again] = [received[before - 1]!, received[before]!];
    expect(again.body.equals(firstCallback.body)).toBe(true);
    expectSigned(again.body, again.headers, webhookJob);
    expect(again.body.toString('utf8')).toBe((await stack.request('GET', `/v2/jobs/${webhookJob}`, { key })).text);

    const entries = await eventsUntil(webhookJob, (e) => e.filter((x) => x.kind === 'webhook_attempt').length === 2, 'the second attempt in the history');
    expect(entries.map((e) => e.kind)).toEqual(['queued', 'processing', 'succeeded', 'webhook_attempt', 'webhook_redelivery_requested', 'webhook_attempt']);
    expect(entries[4]).toMatchObject({ event_id: response.body.event_id, request_id: response.headers.get('x-request-id'), topic: entries[3].topic });
    expect(entries[5]).toMatchObject({ attempt: 2, status_code: 200, outcome: 'delivered' });
    expect(entries[5].offset).toBeGreaterThan(entries[4].offset);
  });

  it('refuses a job without a webhook_url, another key’s job, and one whose callback is still owed', async () => {
    const plain = await startJob({ markdown: '# No callback', output: 'text' });
    await stack.waitForJob(key, plain);
    const none = await stack.request('POST', `/v2/jobs/${plain}/webhook/redeliver`, { key });
    expect(none.status).toBe(422);
    expect(none.body.error).toMatchObject({ code: 'invalid_parameters', errors: [expect.objectContaining({ parameter: 'id' })] });
    const foreign = await stack.request('POST', `/v2/jobs/${webhookJob}/webhook/redeliver`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('job_not_found');
    // A receiver that keeps failing: its callback is retrying, so a redelivery is refused until the attempts end.
    const failing = receiver.answer('/failing', { status: 500 });
    const job = await startJob({ markdown: '# Failing receiver', output: 'text', webhook_url: `${receiver.origin}${failing}` });
    await receiver.waitFor(failing, 1);
    const owed = await stack.request('POST', `/v2/jobs/${job}/webhook/redeliver`, { key });
    expect(owed.status).toBe(422);
    expect(owed.body.error.message).toMatch(/still being delivered/);
  });
});
