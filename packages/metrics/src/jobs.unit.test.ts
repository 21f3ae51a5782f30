import { describe, expect, it } from 'vitest';
import { jobObservations, type EndedJob } from './jobs.ts';

const ended = (over: Partial<EndedJob>): EndedJob => ({
  status: 'succeeded',
  output: 'pdf',
  lane: 'sync',
  key_id: '0190e0a0-0000-7000-8000-000000000001',
  error: null,
  created_at: '2026-11-26T10:00:00.000Z',
  started_at: '2026-11-26T10:00:00.250Z',
  finished_at: '2026-11-26T10:00:01.750Z',
  ...over,
});

describe('what the metrics take from ended jobs', () => {
  it('a success: outcome, time queued and rendering in seconds, counted by the meter', () => {
    expect(jobObservations([ended({})])).toEqual([
      { finished: { outcome: 'succeeded', output: 'pdf', lane: 'sync', code: '' }, queuedSeconds: 0.25, renderingSeconds: 1.5, counted: true },
    ]);
  });

  it('a failure that never started: its code, no times, not counted', () => {
    const [seen] = jobObservations([ended({ status: 'failed', lane: 'async', output: 'text', error: { code: 'render_timeout' }, started_at: null })]);
    expect(seen).toEqual({ finished: { outcome: 'failed', output: 'text', lane: 'async', code: 'render_timeout' }, queuedSeconds: undefined, renderingSeconds: undefined, counted: false });
  });

  it('keeps labels bounded: a code outside the interface is other, a missing output or lane unknown', () => {
    const [seen] = jobObservations([ended({ status: 'failed', error: { code: 'EPIPE from somewhere 0190e0a0' }, output: null, lane: null })]);
    expect(seen!.finished).toEqual({ outcome: 'failed', output: 'unknown', lane: 'unknown', code: 'other' });
  });

  it('a success without a known key (its JobQueued not projected yet) is not counted; clocks apart never give negative times', () => {
    const [seen] = jobObservations([ended({ key_id: null, started_at: '2026-11-26T09:59:59.000Z' })]);
    expect(seen!.counted).toBe(false);
    expect(seen!.queuedSeconds).toBe(0);
  });
});
