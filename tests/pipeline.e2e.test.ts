import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagesStreamModes, type Message } from '@platformatic/kafka';
import { createKafka } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { Stack } from './support/stack.ts';

describe('the job pipeline, API → Kafka → renderer → Kafka → projector → Postgres → API', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start();
    key = await stack.createKey('free');
  });
  afterAll(() => stack?.stop());

  it('converts markdown to html synchronously', async () => {
    const response = await stack.request('POST', '/v2/convert', {
      key,
      json: { markdown: '# Hello\n\nSome *emphasis* and a | table |\n\n| a | b |\n|---|---|\n| 1 | 2 |', output: 'html', title: 'Greeting' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
    expect(response.body).toMatchObject({ status: 'success', output: 'html', document: { title: 'Greeting' } });
    expect(response.body.content).toContain('<em>emphasis</em>');
    expect(response.body.content).toContain('<table>');
    expect(response.body.content).not.toMatch(/<script/i);
    expect(response.body.usage).toEqual({ used_this_period: 1, included: 100, plan: 'free' });
  });

  it('converts markdown to text synchronously, from a form body and from a GET', async () => {
    const form = await stack.request('POST', '/v2/convert', {
      key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ markdown: '- one\n- **two**', output: 'text' }).toString(),
    });
    expect(form.status).toBe(200);
    expect(form.body.content).toBe('• one\n• two');

    const get = await stack.request('GET', `/v2/convert?output=text&markdown=${encodeURIComponent('plain *words*')}&api_key=${key}`);
    expect(get.status).toBe(200);
    expect(get.body.content).toBe('plain words');
  });

  it('runs an async job: 202 with Location, then the job reads back with Retry-After until it is done', async () => {
    const accepted = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'async *body*', output: 'html', async: true } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'queued', job_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(accepted.headers.get('location')).toBe(accepted.body.status_url);
    expect(accepted.body.status_url).toBe(`${stack.url}/v2/jobs/${accepted.body.job_id}`);
    expect(accepted.headers.get('x-request-id')).toBeTruthy();
    expect(Date.parse(accepted.body.expires_at)).toBeGreaterThan(Date.now() + 47 * 3600 * 1000);

    const first = await stack.request('GET', `/v2/jobs/${accepted.body.job_id}`, { key });
    expect(first.status).toBe(200);
    if (first.body.status === 'queued' || first.body.status === 'processing') {
      expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const done = await stack.waitForJob(key, accepted.body.job_id);
    expect(done).toMatchObject({ status: 'succeeded', job_id: accepted.body.job_id });
    expect(done.result).toMatchObject({ status: 'success', output: 'html' });
    expect(done.result.content).toContain('<em>body</em>');
    expect(Date.parse(done.finished_at)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
    const final = await stack.request('GET', `/v2/jobs/${accepted.body.job_id}`, { key });
    expect(final.headers.get('retry-after')).toBeNull();
    expect(final.text).toBe(JSON.stringify(done));
  });

  it('hides a job from every key but the one that started it', async () => {
    const accepted = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'mine', output: 'text', mode: 'async' } });
    const other = await stack.createKey('paid');
    const seen = await stack.request('GET', `/v2/jobs/${accepted.body.job_id}`, { key: other });
    expect(seen.status).toBe(404);
    expect(seen.body.error).toMatchObject({ code: 'job_not_found', retryable: false });
    const unknown = await stack.request('GET', '/v2/jobs/00000000-0000-4000-8000-000000000000', { key });
    expect(unknown.status).toBe(404);
    const malformed = await stack.request('GET', '/v2/jobs/not-a-uuid', { key });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.code).toBe('invalid_parameters');
  });

  it('carries a 1,000,000-character input and its larger result by claim check, never inside an event', async () => {
    const paragraph = 'Lorem ipsum dolor sit amet, *consectetur* adipiscing elit & <more>.\n\n';
    const markdown = paragraph.repeat(Math.ceil(1_000_000 / paragraph.length)).slice(0, 1_000_000);
    const response = await stack.request('POST', '/v2/convert', { key, json: { markdown, output: 'html' } });
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.body.content)).toBeGreaterThan(1024 * 1024);
    expect(response.body.content.match(/<em>consectetur<\/em>/g)).toHaveLength(Math.ceil(1_000_000 / paragraph.length));

    const kafka = createKafka({ clientId: 'pipeline-test', brokers: stack.env.KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') });
    const admin = kafka.admin();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(stack.namespace));
    await admin.close();
    expect(topics.length).toBe(3);
    const consumer = kafka.consumer(`${stack.namespace}-inspect`, 10_000);
    const stream = await consumer.consume({ topics, mode: MessagesStreamModes.EARLIEST });
    const sizes: number[] = [];
    const events = await stack.sql`select count(*)::int as n from job_history`;
    await new Promise<void>((done) => {
      stream.on('data', (message: Message<Buffer, Buffer, Buffer, Buffer>) => {
        sizes.push(message.value!.length);
        if (sizes.length >= events[0]!.n) done();
      });
    });
    await stream.close();
    await consumer.close(true);
    expect(Math.max(...sizes)).toBeLessThan(100 * 1024);
  });

  it('refuses bad requests with the interface error object', async () => {
    const none = await stack.request('POST', '/v2/convert', { key, json: { output: 'html' } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'invalid_parameters', retryable: false });
    expect(none.body.error.errors[0].parameter).toBe('url');

    const two = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'a', html: '<p>b</p>', output: 'html' } });
    expect(two.status).toBe(400);

    const disagree = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'a', async: true, mode: 'sync' } });
    expect(disagree.status).toBe(400);
    expect(disagree.body.error.errors.map((e: { parameter: string }) => e.parameter)).toContain('mode');

    const long = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'x'.repeat(1_000_001), output: 'html' } });
    expect(long.status).toBe(400);
    expect(long.body.error.errors[0].parameter).toBe('markdown');

    const hook = await stack.request('POST', '/v2/convert', {
      key,
      json: { markdown: 'a', output: 'text', async: true, webhook_url: 'https://127.0.0.1/hook' },
    });
    expect(hook.status).toBe(400);
    expect(hook.body.error.errors[0].parameter).toBe('webhook_url');

    const malformed = await stack.request('POST', '/v2/convert', { key, body: '{"markdown":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_parameters');
  });

  it('authenticates with each of the four schemes and refuses missing or unknown keys', async () => {
    const body = JSON.stringify({ markdown: 'k', output: 'text' });
    const json = { 'content-type': 'application/json' };
    const forms: Array<[string, Record<string, string>]> = [
      ['', { ...json, authorization: `Bearer ${key}` }],
      ['', { ...json, 'x-api-key': key }],
      [`?api_key=${key}`, json],
      ['', { ...json, authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }],
    ];
    for (const [query, headers] of forms) {
      const response = await stack.request('POST', `/v2/convert${query}`, { headers, body });
      expect(response.status).toBe(200);
    }
    const missing = await stack.request('POST', '/v2/convert', { headers: json, body });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('api_key_required');
    const unknown = await stack.request('POST', '/v2/convert', { key: 'folio_nope', headers: json, body });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_api_key');
  });

  it('answers health and readiness without a key; ready means jobs flow', async () => {
    expect((await stack.request('GET', '/healthz')).status).toBe(200);
    const ready = await stack.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.checks).sort()).toEqual(['consumers', 'kafka', 'postgres', 'schema_registry', 'storage', 'sync_lane']);
    // No backlog, no wait: sync calls are taken.
    expect(ready.body.checks.sync_lane).toMatchObject({ ok: true, accepting_sync: true, expected_wait_ms: 0 });
    expect(ready.body.checks.consumers).toMatchObject({
      ok: true,
      parked: 0,
      groups: {
        'folio-projector': { members: 1, lag: expect.any(Number) },
        'folio-renderer-sync': { members: 1, lag: expect.any(Number) },
        'folio-renderer-async': { members: 1, lag: expect.any(Number) },
      },
    });

    // With no renderer consuming, nothing would convert the jobs the API accepts: not ready, and it says why.
    await stack.running('renderer')[0]!.stop();
    const unready = await stack.until(async () => {
      const r = await stack.request('GET', '/readyz');
      return r.status === 503 && r;
    }, 30_000, 'readiness to drop');
    expect(unready.body.checks.consumers.error).toMatch(/nobody consumes for folio-renderer-sync, folio-renderer-async/);
    await stack.waitConsuming(stack.spawn('renderer'));
    await stack.waitReady();

    // Without a dispatcher, callbacks wait (their schedule is durable) but jobs flow: still ready. The dispatcher
    // reads no topic (the projector owes the callbacks), so no group of its own is shown.
    await stack.running('dispatcher')[0]!.stop();
    const withoutDispatcher = await stack.request('GET', '/readyz');
    expect(withoutDispatcher.status).toBe(200);
    expect(Object.keys(withoutDispatcher.body.checks.consumers.groups).sort()).toEqual(['folio-projector', 'folio-renderer-async', 'folio-renderer-sync']);
    await stack.waitConsuming(stack.spawn('dispatcher'));
  });
});
