import { describe, expect, it } from 'vitest';
import { jobFailed, jobProcessing, jobSucceeded, webhookRedeliveryRequested, type JobEvent } from '@folio/events';
import { at, queuedJob } from './test-support/events.ts';
import { changedJobs, endedJobs, foldEvents, owingCallbacks, type LoggedEvent } from './fold.ts';
import { emptyJob, type JobRow } from './job.ts';

const A = '0190f0f0-0000-7000-8000-00000000000a';
const B = '0190f0f0-0000-7000-8000-00000000000b';
const result = { output: 'text' as const, content: 'hi', content_ref: null, file: null, document: { title: '', url: null, site: null, author: null, date: null, excerpt: null, image: null, word_count: 1 } };
const lifecycle = (event: JobEvent, offset: number): LoggedEvent => ({ topic: 'lifecycle', partition: 0, offset, event });
const lane = (event: JobEvent, offset: number): LoggedEvent => ({ topic: 'queued', partition: 1, offset, event });
const withHook = (id: string) => ({ ...queuedJob(id, `req-${id}`, 'text'), webhook_url: 'https://example.com/hook' });

describe('foldEvents (a batch of the projection, in memory)', () => {
  it('folds several jobs of several partitions, each job once, and keeps every event in the history', () => {
    const events = [lane(withHook(A), 0), lane(queuedJob(B, 'req-b', 'text'), 1), lifecycle(jobProcessing(A, 1, 'w', at(2)), 0), lifecycle(jobSucceeded(A, 1, 'w', result, 3, at(3)), 1)];
    const folded = foldEvents(events, () => undefined, () => false);
    expect([...folded.touched.keys()].sort()).toEqual([A, B]);
    expect(folded.touched.get(A)).toMatchObject({ status: 'succeeded', key_id: expect.any(String), webhook_url: 'https://example.com/hook', attempts: 1 });
    expect(folded.touched.get(B)).toMatchObject({ status: 'queued', key_id: expect.any(String) });
    expect(folded.history.map((h) => [h.type, h.topic, h.offset, h.effective])).toEqual([
      ['JobQueued', 'queued', 0, true],
      ['JobQueued', 'queued', 1, true],
      ['JobProcessing', 'lifecycle', 0, true],
      ['JobSucceeded', 'lifecycle', 1, true],
    ]);
    expect(folded.before.get(A)).toEqual(emptyJob(A));
  });

  it('takes an event once: one the history has, or one twice in the batch (a writer that retried a send)', () => {
    const success = jobSucceeded(A, 1, 'w', result, 3, at(3));
    const processing = jobProcessing(A, 1, 'w', at(2));
    const folded = foldEvents([lifecycle(processing, 0), lifecycle(success, 1), lifecycle(success, 2)], () => undefined, (id) => id === processing.event_id);
    expect(folded.history.map((h) => h.event_id)).toEqual([success.event_id]);
    expect(folded.fresh).toEqual(new Set([success.event_id]));
  });

  it('names the jobs a batch brought to their end, once: not one that ended before, not one still running', () => {
    const endedBefore: JobRow = { ...emptyJob(B), status: 'failed', key_id: 'k', terminal_event_id: 'x' };
    const events = [
      lifecycle(jobProcessing(A, 1, 'w', at(2)), 0),
      lifecycle(jobSucceeded(A, 1, 'w', result, 3, at(3)), 1),
      lifecycle(jobSucceeded(B, 1, 'w', result, 3, at(3)), 2),
      lifecycle(jobProcessing('0190f0f0-0000-7000-8000-00000000000c', 1, 'w', at(2)), 3),
    ];
    const folded = foldEvents(events, (id) => (id === B ? endedBefore : undefined), () => false);
    expect(endedJobs(folded).map((j) => [j.job_id, j.status])).toEqual([[A, 'succeeded']]);
  });

  it('starts a job from its row when it has one', () => {
    const known: JobRow = { ...emptyJob(A), status: 'succeeded', key_id: 'k', terminal_event_id: 'x' };
    const late = jobFailed(A, null, 'api', { code: 'render_timeout', message: 'late', retryable: true }, at(9));
    const folded = foldEvents([lifecycle(late, 5)], (id) => (id === A ? known : undefined), () => false);
    expect(folded.touched.get(A)).toEqual(known);
    expect(folded.history[0]!.effective).toBe(false);
    expect(changedJobs(folded)).toEqual([]);
  });

  it('names what the live projection acts on: jobs that changed state or learnt their request, and the callbacks owed', () => {
    const events = [lane(withHook(A), 0), lifecycle(jobSucceeded(A, 1, 'w', result, 3, at(3)), 0), lifecycle(jobProcessing(B, 1, 'w', at(2)), 1)];
    const folded = foldEvents(events, () => undefined, () => false);
    const changed = changedJobs(folded);
    expect(changed.map((j) => [j.job_id, j.status]).sort()).toEqual([[A, 'succeeded'], [B, 'processing']]);
    expect(owingCallbacks(changed).map((j) => j.job_id)).toEqual([A]);
  });

  it('owes a callback when the request of a job that ended already arrives (the lane topic read after the lifecycle)', () => {
    const ended: JobRow = { ...emptyJob(A), status: 'failed', finished_at: at(3).toISOString() };
    const folded = foldEvents([lane(withHook(A), 0)], () => ended, () => false);
    expect(owingCallbacks(changedJobs(folded)).map((j) => j.job_id)).toEqual([A]);
  });

  it('collects the redeliveries asked for, in log order', () => {
    const first = webhookRedeliveryRequested(A, 'r1', 'api', at(5));
    const second = webhookRedeliveryRequested(B, 'r2', 'api', at(6));
    const folded = foldEvents([lifecycle(first, 7), lifecycle(second, 8)], () => undefined, () => false);
    expect(folded.redeliveries).toEqual([
      { job_id: A, event_id: first.event_id },
      { job_id: B, event_id: second.event_id },
    ]);
  });
});
