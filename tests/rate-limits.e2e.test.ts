import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../infra/services/index.ts';
import { freshWindow } from './support/rate-windows.ts';
import { Stack } from './support/stack.ts';

/** Each budget of a key, with the interface's own numbers (scale 1), across two API processes. */
describe('rate limits', () => {
  let stack: Stack;
  let secondApi: string;

  beforeAll(async () => {
    stack = await Stack.start({ renderers: 1, env: { FOLIO_RATE_LIMIT_SCALE: '1' } });
    const port = await freePort();
    secondApi = `http://127.0.0.1:${port}`;
    stack.spawn('api', { FOLIO_PORT: String(port), FOLIO_PUBLIC_URL: secondApi });
    await stack.until(async () => (await fetch(`${secondApi}/healthz`).catch(() => null))?.ok, 60_000, 'the second API');
  });
  afterAll(() => stack?.stop());

  const poll = (base: string, key: string, jobId: string) =>
    fetch(`${base}/v2/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } });

  it('answers 120 polls a minute to a free key, then 429 rate_limited with Retry-After; starting work has its own budget', async () => {
    const key = await stack.createKey('free');
    const job = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# polled', output: 'text', async: true } });
    await freshWindow();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 140 && !refused; i++) {
      const answer = await poll(stack.url, key, job.body.job_id);
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
      else await answer.arrayBuffer();
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(refused).toBeDefined();
    expect(statuses.length).toBe(121);
    expect(refused!.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(refused!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused!.headers.get('x-request-id')).toBeTruthy();
    expect(await refused!.json()).toEqual({ status: 'failed', error: { code: 'rate_limited', message: expect.any(String), retryable: true } });

    const converted = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# still allowed', output: 'text' } });
    expect(converted.status).toBe(200);
  });

  it('shares a budget across two API processes', async () => {
    const key = await stack.createKey('free');
    const job = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# shared', output: 'text', async: true } });
    await freshWindow();
    let answered = 0;
    for (let i = 0; i < 240; i++) {
      const answer = await poll(i % 2 === 0 ? stack.url : secondApi, key, job.body.job_id);
      await answer.arrayBuffer();
      if (answer.status === 429) break;
      expect(answer.status).toBe(200);
      answered++;
    }
    // Never refused early; beyond the budget by at most one process's allowance (a twentieth of it), never 2 × 120.
    expect(answered).toBeGreaterThanOrEqual(120);
    expect(answered).toBeLessThanOrEqual(126);
  });

  it('limits starting work to 60 a minute for a free key, counting refused requests too', async () => {
    const key = await stack.createKey('free');
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await stack.request('GET', '/v2/convert?output=text', { key })).status);
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('answers the legacy endpoints 60 a minute, then 429 with X-RateLimit headers and an empty body', async () => {
    const key = await stack.createKey('paid');
    await freshWindow();
    let last: { status: number; headers: Headers; text: string } | undefined;
    for (let i = 0; i < 61; i++) {
      last = await stack.request('GET', '/v2/text/create', { key });
      if (i === 0) {
        expect(last.headers.get('x-ratelimit-limit')).toBe('60');
        expect(last.headers.get('x-ratelimit-remaining')).toBe('59');
      }
      if (i < 60) expect(last.status).toBe(400);
    }
    expect(last!.status).toBe(429);
    expect(last!.text).toBe('');
    expect(last!.headers.get('x-ratelimit-limit')).toBe('60');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-request-id')).toBeTruthy();
  });
});
