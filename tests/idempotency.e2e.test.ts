import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Stack } from './support/stack.ts';

/** Idempotency-Key on POST /v2/convert: a client that lost a response retries for free. */
describe('idempotent intake', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = Stack.shared('plain');
  });
  afterAll(() => stack?.stop());

  const post = (key: string, idempotencyKey: string, json: Record<string, unknown>) =>
    stack.request('POST', '/v2/convert', { key, json, headers: { 'idempotency-key': idempotencyKey } });
  const jobsOf = async (key: string) => {
    const [{ count }] = (await stack.sql`
      select count(*)::int from jobs join api_keys on api_keys.id = jobs.key_id
      where api_keys.key_prefix = ${key.slice(0, 12)}`) as unknown as [{ count: number }];
    return count;
  };

  it('answers a repeated synchronous request with the first answer, converting and counting once', async () => {
    const key = await stack.createKey('free');
    const idem = randomUUID();
    const first = await post(key, idem, { markdown: '# once', output: 'html' });
    expect(first.status).toBe(200);
    const again = await post(key, idem, { markdown: '# once', output: 'html' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    // The same parameters in another encoding are the same request.
    const asForm = await stack.request('POST', '/v2/convert', {
      key,
      body: 'markdown=%23+once&output=html',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': idem },
    });
    expect(asForm.text).toBe(first.text);
    expect(await jobsOf(key)).toBe(1);
    const next = await post(key, randomUUID(), { markdown: '# twice', output: 'text' });
    expect(next.body.usage.used_this_period).toBe(2);
  });

  it('gives parallel duplicates the one job, and an async retry the same job', async () => {
    const key = await stack.createKey('free');
    const idem = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => post(key, idem, { markdown: '# parallel', output: 'text' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);

    const asyncIdem = randomUUID();
    const queued = await post(key, asyncIdem, { markdown: '# later', output: 'text', async: true });
    const retried = await post(key, asyncIdem, { markdown: '# later', output: 'text', async: true });
    expect(queued.status).toBe(202);
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual(queued.body);
    expect(retried.headers.get('location')).toBe(queued.headers.get('location'));
    expect(await jobsOf(key)).toBe(2);
  });

  it('refuses the same key with other parameters, naming the header; other API keys are unaffected', async () => {
    const key = await stack.createKey('free');
    const idem = randomUUID();
    expect((await post(key, idem, { markdown: '# one', output: 'text' })).status).toBe(200);
    const other = await post(key, idem, { markdown: '# other', output: 'text' });
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({ code: 'invalid_parameters', retryable: false, errors: [{ parameter: 'Idempotency-Key' }] });
    const elsewhere = await post(await stack.createKey('free'), idem, { markdown: '# other', output: 'text' });
    expect(elsewhere.status).toBe(200);
    const silly = await post(key, 'x'.repeat(256), { markdown: '# one', output: 'text' });
    expect(silly.status).toBe(400);
    expect(silly.body.error.errors[0].parameter).toBe('Idempotency-Key');
  });

  it('frees the key when the first request was refused at admission, so the retry converts', async () => {
    const key = await stack.createKey('paid', 1);
    expect((await post(key, randomUUID(), { markdown: '# uses the limit', output: 'text' })).status).toBe(200);
    const idem = randomUUID();
    expect((await post(key, idem, { markdown: '# refused', output: 'text' })).status).toBe(401);
    const [{ count }] = (await stack.sql`select count(*)::int from idempotency_keys where idempotency_key = ${idem}`) as unknown as [{ count: number }];
    expect(count).toBe(0);
  });
});
