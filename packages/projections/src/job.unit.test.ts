import { describe, expect, it } from 'vitest';
import { jobFailed, jobProcessing, jobSucceeded, type JobEvent } from '@folio/events';
import { at, queuedJob } from './test-support/events.ts';
import { emptyJob, evolve, type JobRow } from './job.ts';

const JOB = '0190f0f0-0000-7000-8000-000000000001';
const queued = queuedJob(JOB, 'req-1', 'html');
const result = { output: 'html' as const, content: '<p>hi</p>', content_ref: null, file: null, document: { title: '', url: null, site: null, author: null, date: null, excerpt: null, image: null, word_count: 1 } };
const processing = jobProcessing(JOB, 1, 'w1', at(2));
const succeeded = jobSucceeded(JOB, 1, 'w1', result, 5, at(3));
const timedOut = jobFailed(JOB, null, 'api', { code: 'render_timeout', message: 'late', retryable: true }, at(4));

const fold = (events: JobEvent[]) =>
  events.reduce<{ job: JobRow; effective: boolean[] }>(
    (acc, e) => {
      const next = evolve(acc.job, e);
      return { job: next.job, effective: [...acc.effective, next.effective] };
    },
    { job: emptyJob(JOB), effective: [] },
  );

describe('evolve (the jobs projection)', () => {
  it('walks a job from queued through processing to succeeded', () => {
    const { job, effective } = fold([queued, processing, succeeded]);
    expect(effective).toEqual([true, true, true]);
    expect(job).toMatchObject({
      status: 'succeeded',
      key_id: queued.key_id,
      created_at: at(1).toISOString(),
      started_at: at(2).toISOString(),
      finished_at: at(3).toISOString(),
      attempts: 1,
      result,
      error: null,
      terminal_event_id: succeeded.event_id,
    });
  });

  it('keeps the first terminal event: a late success after a timeout changes nothing', () => {
    const { job, effective } = fold([queued, processing, timedOut, succeeded]);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('render_timeout');
    expect(job.result).toBeNull();
    expect(job.finished_at).toBe(at(4).toISOString());
    expect(effective).toEqual([true, true, true, false]);
  });

  it('ignores a duplicate success and a redelivered attempt after the end', () => {
    const again = jobSucceeded(JOB, 2, 'w2', { ...result, content: 'other' }, 5, at(6));
    const { job, effective } = fold([queued, processing, succeeded, jobProcessing(JOB, 1, 'w2', at(5)), again]);
    expect(job.result?.content).toBe('<p>hi</p>');
    expect(job.attempts).toBe(1);
    expect(effective.slice(3)).toEqual([false, false]);
  });

  it('gives the same row whichever topic is read first (JobQueued commutes with the lifecycle)', () => {
    const lifecycleFirst = fold([processing, succeeded, queued]).job;
    const queuedFirst = fold([queued, processing, succeeded]).job;
    expect(lifecycleFirst).toEqual(queuedFirst);
  });

  it('counts every attempt before the end', () => {
    const { job } = fold([queued, processing, jobProcessing(JOB, 2, 'w1', at(3)), jobProcessing(JOB, 3, 'w1', at(4))]);
    expect(job.status).toBe('processing');
    expect(job.attempts).toBe(3);
    expect(job.started_at).toBe(at(2).toISOString());
  });
});
