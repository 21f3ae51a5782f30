import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

/**
 * Back-pressure on the sync lane: a renderer that takes a second a job, one job at a time, under a 6 s ceiling. A burst
 * of sync calls is taken (nothing was known of the lane yet); once the backlog it left means a new call would wait
 * past three quarters of the ceiling, new calls are refused at once with rate_limited and Retry-After, before
 * anything is queued or counted, on the unified and the legacy endpoints alike, and /readyz says so; when the
 * backlog is gone, calls are taken again.
 */
describe('a sync lane behind its ceiling', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start({
      env: { FOLIO_SYNC_TIMEOUT: '6', FOLIO_FAULT_RENDER_DELAY_MS: '1000', FOLIO_RENDER_CONCURRENCY: '1', FOLIO_RATE_LIMIT_SCALE: '100' },
    });
    key = await stack.createKey('paid');
  });
  afterAll(() => stack?.stop());

  const convert = (marker: string) => stack.request('POST', '/v2/convert', { key, json: { markdown: `# ${marker}\n\nbody`, output: 'text' } });

  it('refuses at once what it cannot finish in time, says when to come back, and takes calls again once the backlog is gone', async () => {
    const burst = Array.from({ length: 14 }, (_, i) => convert(`burst ${i}`));

    // The lane is read once a second while sync calls come in; its drain rate shows once renderers commit.
    await stack.until(async () => (await stack.request('GET', '/readyz')).body?.checks?.sync_lane?.accepting_sync === false, 8_000, 'the lane to be behind');
    const started = Date.now();
    const refused = { answer: await convert('late'), ms: Date.now() - started };
    expect(refused.answer.status).toBe(429);
    expect(refused.answer.body.error).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(refused.answer.body.error.message).toMatch(/backlog/);
    const retryAfter = Number(refused.answer.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30).toBe(true);
    expect(refused.ms).toBeLessThan(1000);

    const legacy = await stack.request('POST', '/v2/text/create', { key, json: { html: '<h1>legacy</h1><p>body</p>' } });
    expect(legacy.status).toBe(429);
    expect(legacy.text).toBe('');
    expect(Number(legacy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const ready = await stack.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.sync_lane).toMatchObject({ ok: true, accepting_sync: false });
    expect(ready.body.checks.sync_lane.expected_wait_ms === null || ready.body.checks.sync_lane.expected_wait_ms > 4500).toBe(true);

    // The refused calls left nothing behind: no job, nothing counted.
    const answers = await Promise.all(burst);
    expect(answers.every((a) => a.status === 200 || a.body?.error?.code === 'render_timeout')).toBe(true);
    const jobs = await stack.sql<{ n: number }[]>`select count(*)::int as n from jobs`;
    expect(jobs[0]!.n).toBe(14);

    // The late jobs are dropped by the renderer (their callers were answered), the lane drains, calls are taken.
    const taken = await stack.until(async () => {
      const answer = await convert('after');
      return answer.status === 200 && answer;
    }, 40_000, 'a call taken again');
    expect(taken.body.content).toContain('after');
  });
});
