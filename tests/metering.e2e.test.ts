import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../infra/services/index.ts';
import { Stack } from './support/stack.ts';

/**
 * The meter, through HTTP: one success counts once, failures are free, an async job counts when it succeeds, every
 * success reports its own exact count, and a free key's 100 documents hold exactly under concurrency, across two API
 * processes sharing the meter through Postgres.
 */
describe('metering and quota', () => {
  let stack: Stack;
  let secondApi: string;

  beforeAll(async () => {
    stack = await Stack.start({ renderers: 1, env: { FOLIO_FAULT_THROW_ON: 'FAIL-THIS-JOB', FOLIO_RENDER_ATTEMPTS: '1' } });
    const port = await freePort();
    secondApi = `http://127.0.0.1:${port}`;
    stack.spawn('api', { FOLIO_PORT: String(port), FOLIO_PUBLIC_URL: secondApi });
    await stack.until(async () => (await fetch(`${secondApi}/healthz`).catch(() => null))?.ok, 60_000, 'the second API');
  });
  afterAll(() => stack?.stop());

  const convert = (key: string, json: Record<string, unknown>) => stack.request('POST', '/v2/convert', { key, json: { output: 'text', ...json } });

  it('reports usage in every success, counting that success; failures are free', async () => {
    const key = await stack.createKey('free');
    const first = await convert(key, { markdown: '# one' });
    expect(first.status).toBe(200);
    expect(first.body.usage).toEqual({ used_this_period: 1, included: 100, plan: 'free' });

    const failed = await convert(key, { markdown: 'FAIL-THIS-JOB' });
    expect(failed.status).toBe(422);
    expect(failed.body.error).toMatchObject({ code: 'render_failed', retryable: true });

    const second = await convert(key, { markdown: '# two', output: 'html' });
    expect(second.body.usage.used_this_period).toBe(2);

    const paid = await convert(await stack.createKey('paid'), { markdown: '# paid' });
    expect(paid.body.usage).toEqual({ used_this_period: 1, included: 10_000, plan: 'paid' });
  });

  it('counts an async job once, when it succeeds, and reports the same count on every reading', async () => {
    const key = await stack.createKey('free');
    const accepted = await convert(key, { markdown: '# later', async: true });
    expect(accepted.status).toBe(202);
    const job = await stack.waitForJob(key, accepted.body.job_id);
    expect(job.result.usage.used_this_period).toBe(1);
    const again = await stack.request('GET', `/v2/jobs/${accepted.body.job_id}`, { key });
    expect(again.body.result.usage.used_this_period).toBe(1);
    const next = await convert(key, { markdown: '# next' });
    expect(next.body.usage.used_this_period).toBe(2);
    const [{ count }] = (await stack.sql`
      select count(*)::int from usage join jobs using (job_id) where jobs.job_id = ${accepted.body.job_id}`) as unknown as [{ count: number }];
    expect(count).toBe(1);
  });

  it('gives each of ten parallel successes its own exact count', async () => {
    const key = await stack.createKey('free');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => convert(key, { markdown: `# parallel ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.body.usage.used_this_period).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('holds the free plan at exactly 100 under concurrency across two API processes: with 97 used, 20 parallel calls give 3 successes and 17 × 402', async () => {
    const key = await stack.createKey('free');
    const queued = await Promise.all(Array.from({ length: 97 }, (_, i) => convert(key, { markdown: `# seed ${i}`, async: true })));
    expect(queued.every((q) => q.status === 202)).toBe(true);
    for (const q of queued) expect((await stack.waitForJob(key, q.body.job_id)).status).toBe('succeeded');

    // Half of them to each API process: the reservations are made under one lock in Postgres, whichever takes them.
    const viaSecond = async (i: number) => {
      const answer = await fetch(`${secondApi}/v2/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ markdown: `# race ${i}`, output: 'text' }),
      });
      return { status: answer.status, headers: answer.headers, body: await answer.json() };
    };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? convert(key, { markdown: `# race ${i}` }) : viaSecond(i))));
    const successes = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 402);
    expect(successes.map((a) => a.body.usage.used_this_period).sort((a, b) => a - b)).toEqual([98, 99, 100]);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(r.body.error).toMatchObject({ code: 'quota_exceeded', retryable: false });
      expect(r.body.error.upgrade_url).toMatch(/^https?:\/\//);
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
    // The 101st, and an async request, are refused too; polling a finished job still works.
    expect((await convert(key, { markdown: '# 101' })).status).toBe(402);
    expect((await convert(key, { markdown: '# 101', async: true })).status).toBe(402);
    const poll = await stack.request('GET', `/v2/jobs/${queued[0]!.body.job_id}`, { key });
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('succeeded');
  });

  it('answers 401 limit_exceeded once a key has used the limit set on it, and frees nothing a failure reserved', async () => {
    const key = await stack.createKey('paid', 2);
    expect((await convert(key, { markdown: 'FAIL-THIS-JOB' })).status).toBe(422);
    expect((await convert(key, { markdown: '# a' })).status).toBe(200);
    expect((await convert(key, { markdown: '# b' })).status).toBe(200);
    const over = await convert(key, { markdown: '# c' });
    expect(over.status).toBe(401);
    expect(over.body.error).toMatchObject({ code: 'limit_exceeded', retryable: false });
  });
});
