import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { historyOf, pidOfWorker, startJob } from './support/jobs.ts';

describe('kill -9 of a renderer in the middle of a job', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    // Every conversion is held for 4 s, so there is time to kill the renderer while it works.
    stack = await Stack.start({ renderers: 2, env: { FOLIO_FAULT_RENDER_DELAY_MS: '4000' } });
    key = await stack.createKey();
  });
  afterAll(() => stack?.stop());

  it('still finishes the job exactly once, on another renderer', async () => {
    const jobId = await startJob(stack, key, '# survives a crash');
    const processing = await stack.until(
      async () => (await historyOf(stack, jobId)).find((e) => e.type === 'JobProcessing'),
      60_000,
      'the job to start',
    );
    const victim = stack.running('renderer').find((r) => r.child.pid === pidOfWorker(processing.worker));
    expect(victim, 'the renderer working on the job').toBeDefined();
    await victim!.kill();

    const job = await stack.waitForJob(key, jobId, 90_000);
    expect(job.status).toBe('succeeded');
    expect(job.result.content).toBe('survives a crash');

    const history = await historyOf(stack, jobId);
    const successes = history.filter((e) => e.type === 'JobSucceeded');
    expect(successes.filter((e) => e.effective)).toHaveLength(1);
    expect(successes.every((e) => pidOfWorker(e.worker) !== victim!.child.pid)).toBe(true);
    // The retry is visible in the history: the job was started twice.
    expect(history.filter((e) => e.type === 'JobProcessing').length).toBeGreaterThanOrEqual(2);
    const [row] = await stack.sql`select status, attempts from jobs where job_id = ${jobId}`;
    expect(row).toMatchObject({ status: 'succeeded' });
    expect(row!.attempts).toBeGreaterThanOrEqual(2);
  });
});
