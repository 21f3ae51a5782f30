import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { historyOf, startJob } from './support/jobs.ts';

describe('a poison job (the renderer throws on it every time)', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    // One partition, so the poison job and the healthy one behind it share it.
    stack = await Stack.start({ env: { FOLIO_FAULT_THROW_ON: 'POISON-PILL', FOLIO_TOPIC_PARTITIONS: '1', FOLIO_RENDER_ATTEMPTS: '3' } });
    key = await stack.createKey();
  });
  afterAll(() => stack?.stop());

  it('fails with render_failed after bounded attempts and does not block its partition', async () => {
    const poison = await startJob(stack, key, 'this input is a POISON-PILL');
    const healthy = await startJob(stack, key, 'behind the poison');

    const failed = await stack.waitForJob(key, poison);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'render_failed', message: expect.any(String), retryable: true });
    expect(failed.result).toBeUndefined();
    const attempts = (await historyOf(stack, poison)).filter((e) => e.type === 'JobProcessing').map((e) => e.attempt);
    expect(attempts).toEqual([1, 2, 3]);

    const done = await stack.waitForJob(key, healthy);
    expect(done.status).toBe('succeeded');

    const sync = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'POISON-PILL', output: 'text' } });
    expect(sync.status).toBe(422);
    expect(sync.body).toEqual({ status: 'failed', error: { code: 'render_failed', message: expect.any(String), retryable: true } });
  });
});
