import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { historyOf } from './support/jobs.ts';

describe('the synchronous ceiling', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    // The renderer must take the job within the ceiling (a job older than it is dropped, its caller answered): 2 s
    // leaves room on a machine busy with other test files, and the conversion then outlasts it by 2 s.
    stack = await Stack.start({ env: { FOLIO_SYNC_TIMEOUT: '2', FOLIO_FAULT_RENDER_DELAY_MS: '4000' } });
    key = await stack.createKey();
  });
  afterAll(() => stack?.stop());

  it('answers render_timeout and records it, so the late success changes nothing', async () => {
    const started = Date.now();
    const response = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'slow', output: 'text' } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'render_timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(3400);

    const [job] = await stack.sql<{ job_id: string }[]>`select job_id from jobs`;
    const history = await stack.until(async () => {
      const h = await historyOf(stack, job!.job_id);
      return h.some((e) => e.type === 'JobSucceeded') && h;
    }, 30_000, 'the late success');
    const late = history.find((e) => e.type === 'JobSucceeded')!;
    expect(late.effective).toBe(false);
    const timeout = history.find((e) => e.type === 'JobFailed')!;
    expect(timeout).toMatchObject({ effective: true, worker: 'api' });

    const [row] = await stack.sql`select status, error, result from jobs where job_id = ${job!.job_id}`;
    expect(row).toMatchObject({ status: 'failed', result: null, error: { code: 'render_timeout' } });
  });
});
