import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { historyOf, pidOfWorker, startJob } from './support/jobs.ts';

/**
 * A job that takes its renderer down every time (here: the renderer kills itself with SIGKILL when it meets the
 * marker, as an out-of-memory kill or a native crash would). Renderers are brought back as a supervisor would, so
 * the job meets a fresh process each time: its starts must be counted across processes, not in any one of them.
 */
describe('a job that kills its renderer on every attempt', () => {
  let stack: Stack;
  let key: string;
  let keeper: NodeJS.Timeout;
  const pids = new Set<number>();

  beforeAll(async () => {
    stack = await Stack.start({ renderers: 2, env: { FOLIO_FAULT_CRASH_ON: 'CRASH-PILL', FOLIO_RENDER_ATTEMPTS: '3' } });
    key = await stack.createKey('paid');
    for (const r of stack.running('renderer')) pids.add(r.child.pid!);
    keeper = setInterval(() => {
      if (stack.running('renderer').length < 2) pids.add(stack.spawn('renderer').child.pid!);
    }, 500);
  });
  afterAll(async () => {
    clearInterval(keeper);
    await stack?.stop();
  });

  it('fails after the configured attempts, counted across renderer processes, while other jobs flow', async () => {
    const before = await startJob(stack, key, 'a job before the crasher');
    const crasher = await startJob(stack, key, 'this input is a CRASH-PILL');
    // Jobs beside it: some run in the same renderer when it dies, and must not pay for it.
    const others: string[] = [];
    for (let i = 0; i < 6; i++) others.push(await startJob(stack, key, `job ${i} beside the crasher`));

    const failed = await stack.waitForJob(key, crasher, 150_000);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'render_failed', message: expect.stringMatching(/run 3 times and never finished/), retryable: true });

    // Three counted runs, each by a renderer process that died of it (the two retries alone in their renderer), then
    // a fourth start that failed the job unconverted.
    const [row] = await stack.sql`select counted from render_attempts where job_id = ${crasher}`;
    expect(row!.counted).toBe(4);
    const history = await historyOf(stack, crasher);
    // Retries are announced before they run, so the history shows them though their renderer died.
    const retries = history.filter((e) => e.type === 'JobProcessing');
    expect(retries).toHaveLength(2);
    expect(new Set(retries.map((e) => pidOfWorker(e.worker))).size).toBe(2);
    // Three renderers died of it, each replaced by the keeper within half a second: the fourth start can fail the job
    // on the surviving renderer before the last one is replaced, so the count is waited for, not read at once.
    await stack.until(async () => pids.size >= 5, 10_000, 'the third renderer that died to be replaced');
    expect(pids.size).toBeGreaterThanOrEqual(5);

    for (const id of [before, ...others]) expect((await stack.waitForJob(key, id, 60_000)).status).toBe('succeeded');
  });
});
