import { describe, expect, it } from 'vitest';
import { jobFailed, jobProcessing, type JobEvent } from '@folio/events';
import { at, queuedJob } from './test-support/events.ts';
import { foldInLogOrder } from './reapply.ts';
import type { LoggedEvent } from './fold.ts';

const JOB = '0190f0f0-0000-7000-8000-000000000002';
const queued = queuedJob(JOB, 'req-2', 'text');
const first = jobProcessing(JOB, 1, 'w1', at(2));
const parked = jobProcessing(JOB, 2, 'w2', at(3));
const failedByParking = jobFailed(JOB, null, 'projector', { code: 'render_failed', message: 'parked', retryable: true }, at(4));

const lane = (event: JobEvent, offset: number): LoggedEvent => ({ topic: 'folio.jobs.queued.async', partition: 1, offset, event });
const life = (event: JobEvent, offset: number): LoggedEvent => ({ topic: 'folio.jobs.lifecycle', partition: 3, offset, event });

describe('folding a job in log order (re-applying a parked event)', () => {
  it('gives the same job whatever order the events are handed over in', () => {
    const inOrder = foldInLogOrder(JOB, [lane(queued, 7), life(first, 10), life(parked, 11), life(failedByParking, 12)]);
    // The parked event arrives last, as a retry hands it over, and the request after the lifecycle.
    const late = foldInLogOrder(JOB, [life(first, 10), life(failedByParking, 12), lane(queued, 7), life(parked, 11)]);
    expect(late.job).toEqual(inOrder.job);
    expect([...late.effective].sort()).toEqual([...inOrder.effective].sort());
    // In its place the parked start counts: two starts, then the failure.
    expect(inOrder.job).toMatchObject({ status: 'failed', attempts: 2, key_id: queued.key_id, terminal_event_id: failedByParking.event_id });
    expect(inOrder.effective.get(parked.event_id)).toBe(true);
  });

  it('keeps the first terminal event whatever else is folded in', () => {
    const late = jobFailed(JOB, 1, 'w1', { code: 'parse_failed', message: 'later', retryable: false }, at(5));
    const { job, effective } = foldInLogOrder(JOB, [life(late, 13), lane(queued, 7), life(failedByParking, 12)]);
    expect(job.terminal_event_id).toBe(failedByParking.event_id);
    expect(effective.get(late.event_id)).toBe(false);
  });
});
