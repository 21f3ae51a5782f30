import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '@folio/keys';
import { startJob } from './support/jobs.ts';
import { Stack } from './support/stack.ts';

/**
 * Polls are answered from memory (apps/api/src/jobs/job-cache.ts, plugins/key-cache.ts): these check that what is
 * served from memory is what the database says, late by at most a notification's delivery, never going back, never
 * to another key.
 */
describe('polling from memory', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Every conversion is held back 1.5 s, so a job is polled many times while it is unfinished.
    stack = await Stack.start({ env: { FOLIO_FAULT_RENDER_DELAY_MS: '1500' } });
  }, 180_000);
  afterAll(() => stack?.stop());

  it('answers a job polled in a tight loop with its latest state: unfinished while it runs, then final, never going back', async () => {
    const key = await stack.createKey('paid');
    const jobId = await startJob(stack, key, '# Polled\n\nwhile it runs');
    const statuses: string[] = [];
    // The API hears of each change by NOTIFY, moments after the commit (how soon is not asserted here: the unit test
    // of JobCache checks that a change drops the reading it kept).
    for (;;) {
      const poll = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
      expect(poll.status).toBe(200);
      statuses.push(poll.body.status);
      if (poll.body.status === 'succeeded') {
        expect(poll.headers.get('retry-after')).toBeNull();
        break;
      }
      expect(poll.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    for (let i = 0; i < 20; i++) statuses.push((await stack.request('GET', `/v2/jobs/${jobId}`, { key })).body.status);
    // It was polled while unfinished, and its state never went back.
    const order = ['queued', 'processing', 'succeeded'];
    expect(statuses.some((s) => s !== 'succeeded')).toBe(true);
    for (let i = 1; i < statuses.length; i++) expect(order.indexOf(statuses[i]!)).toBeGreaterThanOrEqual(order.indexOf(statuses[i - 1]!));

    // The final reading is the same bytes every time, and only its key gets it.
    const first = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
    const again = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
    expect(again.text).toBe(first.text);
    expect(first.body.result.content).toContain('Polled');
    const other = await stack.createKey('paid');
    const refused = await stack.request('GET', `/v2/jobs/${jobId}`, { key: other });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('job_not_found');
  });

  it('forgets a key as soon as it is deactivated, even one that was just polling', async () => {
    const key = await stack.createKey('free');
    const jobId = await startJob(stack, key, 'soon refused');
    expect((await stack.request('GET', `/v2/jobs/${jobId}`, { key })).status).toBe(200);
    await stack.sql`update api_keys set active = false where key_hash = ${hashKey(key)}`;
    // The change reaches the API as a notification, milliseconds after the commit (a kept key would last a minute).
    const refused = await stack.until(async () => {
      const poll = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
      return poll.status === 200 ? null : poll;
    }, 2_000, 'the key to be refused');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('subscription_inactive');
  });
});
