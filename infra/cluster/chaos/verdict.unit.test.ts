import { describe, expect, it } from 'vitest';
import type { RequestRecord } from './requests.ts';
import { closingLine, faultLatency, percentile, verdict, type JobRow, type UsageRow } from './verdict.ts';

let n = 0;
function request(over: Partial<RequestRecord>): RequestRecord {
  n += 1;
  const id = `r${n}`;
  return {
    mode: 'async', input: 'markdown', output: 'pdf', webhook: false, id, key: 'paid1', plan: 'paid', start: 1_000, end: 1_100,
    status: 202, requestIds: [`${id}-1`], attempts: [{ status: 202, at: 1_100, ms: 100 }], ...over,
  };
}

function world() {
  const records = [
    request({ jobId: 'j1', webhook: true }),
    request({ mode: 'sync', output: 'html', status: 200, requestIds: ['s-1'], attempts: [{ status: 503, at: 1_050, ms: 5 }, { status: 200, at: 1_100, ms: 50 }] }),
    request({ jobId: 'j3', key: 'free1', plan: 'free' }),
    request({ key: 'free1', plan: 'free', status: 402, code: 'quota_exceeded', attempts: [{ status: 402, code: 'quota_exceeded', at: 1_100, ms: 3 }] }),
  ];
  const jobs: JobRow[] = [
    { jobId: 'j1', key: 'paid1', status: 'succeeded', requestId: 'r-x', webhook: true },
    { jobId: 'j2', key: 'paid1', status: 'succeeded', requestId: 's-1', webhook: false },
    { jobId: 'j3', key: 'free1', status: 'failed', requestId: 'r-y', webhook: false },
  ];
  const usage: UsageRow[] = [{ jobId: 'j1', key: 'paid1' }, { jobId: 'j2', key: 'paid1' }];
  return { records, jobs, usage, callbacks: [{ jobId: 'j1', valid: true }, { jobId: 'j1', valid: true }], faults: [], freeCap: 1 };
}

describe('the chaos verdict', () => {
  it('passes when every accepted job finished once, was counted once and called back, except for the 5xx it saw', () => {
    const v = verdict(world());
    expect(v).toMatchObject({ requests: 4, accepted: 3, jobs: 3, finished: 3, lost: [], stuck: [], uncounted: [], overcounted: [] });
    expect(v.callbacks).toMatchObject({ expected: 1, delivered: 1, repeats: 1, invalid: 0 });
    expect(v.quotas).toEqual([{ key: 'free1', cap: 1, succeeded: 0, counted: 0, exact: true }]);
    // The sync call got its 200 in the end, but a 503 on the way is still a 5xx answered.
    expect(v.serverErrors).toBe(1);
    expect(v.retriedAnswers).toEqual({ '503': 1 });
    expect(v.ok).toBe(false);
    const clean = world();
    clean.records[1]!.attempts.shift();
    expect(verdict(clean).ok).toBe(true);
    expect(closingLine(verdict(clean))).toMatch(/3\/3 jobs finished exactly once \(0 lost, 0 stuck, 0 counted twice.*— PASS$/);
  });

  it('fails on a lost job, a stuck one, a job counted without succeeding and a success not counted', () => {
    const w = world();
    w.records[1]!.attempts.shift();
    w.jobs = w.jobs.filter((j) => j.jobId !== 'j3');
    expect(verdict(w).lost).toEqual(['j3']);
    const stuck = world();
    stuck.jobs[2]!.status = 'processing';
    expect(verdict(stuck).stuck).toEqual(['j3']);
    const counted = world();
    counted.usage.push({ jobId: 'j3', key: 'free1' });
    const v = verdict(counted);
    expect(v.overcounted).toEqual(['j3']);
    expect(v.quotas[0]!.exact).toBe(false);
    const uncounted = world();
    uncounted.usage.pop();
    expect(verdict(uncounted).uncounted).toEqual(['j2']);
    for (const bad of [w, stuck, counted, uncounted]) expect(verdict(bad).ok).toBe(false);
  });

  it('fails when a free key went past its cap, a callback is missing or one is badly signed', () => {
    const over = world();
    over.records[1]!.attempts.shift();
    over.jobs.push({ jobId: 'j4', key: 'free1', status: 'succeeded', requestId: null, webhook: false }, { jobId: 'j5', key: 'free1', status: 'succeeded', requestId: null, webhook: false });
    over.usage.push({ jobId: 'j4', key: 'free1' }, { jobId: 'j5', key: 'free1' });
    expect(verdict(over).quotas[0]).toMatchObject({ counted: 2, cap: 1, exact: false });
    const missing = world();
    missing.records[1]!.attempts.shift();
    missing.callbacks = [{ jobId: 'j1', valid: false }];
    expect(verdict(missing).callbacks).toMatchObject({ missing: ['j1'], invalid: 1 });
    expect(verdict(over).ok || verdict(missing).ok).toBe(false);
  });

  it('fails on a job that succeeded and was counted while no caller was answered with it', () => {
    const w = world();
    w.records[1]!.attempts.shift();
    w.jobs.push({ jobId: 'j9', key: 'paid1', status: 'succeeded', requestId: 'r-z', webhook: false });
    w.usage.push({ jobId: 'j9', key: 'paid1' });
    expect(verdict(w)).toMatchObject({ unseen: ['j9'], ok: false });
    // A try that failed (a render_timeout answered as such) is seen: its failure was the answer.
    w.jobs.at(-1)!.status = 'failed';
    w.usage.pop();
    expect(verdict(w)).toMatchObject({ unseen: [], ok: true });
  });

  it('takes a sync 200 whose job is not recorded succeeded as a fault of the read model', () => {
    const w = world();
    w.records[1]!.attempts.shift();
    w.jobs[1]!.status = 'failed';
    w.usage = w.usage.filter((u) => u.jobId !== 'j2');
    expect(verdict(w)).toMatchObject({ answeredNotSucceeded: ['j2'], ok: false });
  });

  it('splits latency into before, during and after each fault by when requests started', () => {
    const records = [0, 5_000, 25_000, 26_000, 40_000, 49_999].map((start, i) => request({ start, end: start + (i + 1) * 10 }));
    const [f] = faultLatency(records, [{ name: 'x', start: 20_000, end: 30_000 }], 20_000);
    expect(f!.before).toEqual({ n: 2, p50: 10, p99: 20 });
    expect(f!.during).toEqual({ n: 2, p50: 30, p99: 40 });
    expect(f!.after).toEqual({ n: 2, p50: 50, p99: 60 });
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  });
});
