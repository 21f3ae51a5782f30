import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { startJob } from './support/jobs.ts';

describe('kill -9 of the projector while events flow', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start();
    key = await stack.createKey();
  });
  afterAll(() => stack?.stop());

  it('catches up after a restart with no gap and no double effect', async () => {
    const jobs: string[] = [];
    const submitting = (async () => {
      for (let i = 0; i < 60; i++) jobs.push(await startJob(stack, key, `job **${i}**`));
    })();

    // Kill the projector once it has projected some of the flow, while the rest keeps coming.
    await stack.until(async () => {
      const [{ n }] = (await stack.sql`select count(*)::int as n from job_history`) as unknown as [{ n: number }];
      return n >= 20;
    }, 60_000, 'some events projected');
    const [projector] = stack.running('projector');
    await projector!.kill();
    await new Promise((r) => setTimeout(r, 1500));
    stack.spawn('projector');
    await submitting;

    for (const id of jobs) expect((await stack.waitForJob(key, id)).status).toBe('succeeded');

    // No gap: every job has its whole story. No double effect: each event once, one effective success a job.
    const perJob = await stack.sql<{ job_id: string; queued: number; processing: number; succeeded: number; effective: number }[]>`
      select job_id,
             count(*) filter (where type = 'JobQueued')::int as queued,
             count(*) filter (where type = 'JobProcessing')::int as processing,
             count(*) filter (where type = 'JobSucceeded')::int as succeeded,
             count(*) filter (where type = 'JobSucceeded' and effective)::int as effective
      from job_history group by job_id`;
    expect(perJob).toHaveLength(jobs.length);
    for (const row of perJob) expect(row).toMatchObject({ queued: 1, processing: 1, succeeded: 1, effective: 1 });
    const [{ attempts }] = (await stack.sql`select sum(attempts)::int as attempts from jobs`) as unknown as [{ attempts: number }];
    expect(attempts).toBe(jobs.length);
  });
});
