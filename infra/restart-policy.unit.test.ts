import { describe, expect, it } from 'vitest';
import { afterCrash, noCrashes, restartPolicy, type CrashRecord, type Verdict } from './restart-policy.ts';

const SECOND = 1_000;

/** Crashes of an app that each time died `upMs` after it was started again. */
function crashes(upMs: number[], start = 0): Verdict[] {
  let record: CrashRecord = noCrashes;
  let startedAt = start;
  return upMs.map((up) => {
    const verdict = afterCrash(record, { startedAt, diedAt: startedAt + up });
    record = verdict.record;
    startedAt = startedAt + up + (verdict.restart ? verdict.delayMs : 0);
    return verdict;
  });
}

const delays = (verdicts: Verdict[]) => verdicts.map((v) => (v.restart ? v.delayMs : 'give up'));

describe('restart policy', () => {
  it('restarts a crashed app after 1 s, then doubles the wait for each crash in a row', () => {
    expect(delays(crashes([10 * SECOND, 10 * SECOND, 10 * SECOND, 10 * SECOND]))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('gives up at the fifth crash within two minutes', () => {
    const verdicts = crashes([2 * SECOND, 2 * SECOND, 2 * SECOND, 2 * SECOND, 2 * SECOND]);
    expect(delays(verdicts)).toEqual([1000, 2000, 4000, 8000, 'give up']);
    expect(verdicts[4]!.record.recent).toHaveLength(5);
  });

  it('keeps restarting an app whose crashes are spread out, never waiting more than 30 s', () => {
    // Up 50 s each time: never healthy long enough to reset the backoff, never five crashes in two minutes.
    const verdicts = crashes(Array.from({ length: 10 }, () => 50 * SECOND));
    expect(delays(verdicts)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
    expect(Math.max(...verdicts.map((v) => v.record.recent.length))).toBeLessThan(restartPolicy.maxCrashes);
  });

  it('counts only the crashes of the last two minutes', () => {
    const fourCrashes: CrashRecord = { recent: [0, 10 * SECOND, 20 * SECOND, 30 * SECOND], series: 4 };
    const inside = afterCrash(fourCrashes, { startedAt: 100 * SECOND, diedAt: 119 * SECOND });
    const outside = afterCrash(fourCrashes, { startedAt: 100 * SECOND, diedAt: 120 * SECOND });
    expect(inside.restart).toBe(false);
    expect(outside.restart).toBe(true);
    expect(outside.record.recent).toEqual([10 * SECOND, 20 * SECOND, 30 * SECOND, 120 * SECOND]);
  });

  it('starts the backoff over once the app has stayed up a minute', () => {
    expect(delays(crashes([5 * SECOND, 5 * SECOND, 60 * SECOND, 5 * SECOND]))).toEqual([1000, 2000, 1000, 2000]);
  });

  it('counts the first crash of a fresh app as the first of its series', () => {
    const verdict = afterCrash(noCrashes, { startedAt: 0, diedAt: 500 });
    expect(verdict).toEqual({ restart: true, delayMs: 1000, record: { recent: [500], series: 1 } });
  });
});
