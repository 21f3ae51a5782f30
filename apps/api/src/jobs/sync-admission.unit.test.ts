import { describe, expect, it } from 'vitest';
import { admitSyncCall, expectedWaitMs, type LaneReading } from './sync-admission.ts';

const CEILING = 27_000;
/** Readings a second apart ending at `now`, the lane's position advancing `drainEach` a second. */
function lane(opts: { seconds: number; lag: number; drainEach: number; members?: number; now?: number }): LaneReading[] {
  const now = opts.now ?? 100_000;
  return Array.from({ length: opts.seconds + 1 }, (_, i) => ({
    at: now - (opts.seconds - i) * 1000,
    lag: opts.lag,
    position: 500 + i * opts.drainEach,
    members: opts.members ?? 1,
  }));
}

describe('expectedWaitMs', () => {
  it('is nothing while the backlog fits in the renderers slots', () => {
    expect(expectedWaitMs(lane({ seconds: 5, lag: 8, drainEach: 0, members: 2 }), 4, CEILING, 100_000)).toBe(0);
  });

  it('is what waits beyond the slots and the uncommitted second, divided by the rate the lane drains at', () => {
    // 44 in the lag: 4 in the slots, 2 converted since the last commit (a second at 2 a second), 38 waiting: 19 s.
    expect(expectedWaitMs(lane({ seconds: 5, lag: 44, drainEach: 2 }), 4, CEILING, 100_000)).toBe(19_000);
    // Only the last ten seconds set the rate: a faster start long ago does not count.
    const readings = [{ at: 80_000, lag: 44, position: 0, members: 1 }, ...lane({ seconds: 10, lag: 44, drainEach: 4 })];
    expect(expectedWaitMs(readings, 4, CEILING, 100_000)).toBe(9_000);
  });

  it('reads the drain rate through the steps of once-a-second commits', () => {
    // 50 jobs a second, committed once a second out of phase with the readings: 0, 50, 50, 150, 200.
    const positions = [0, 50, 50, 150, 200];
    const readings = positions.map((position, i) => ({ at: 96_000 + i * 1000, lag: 300, position, members: 1 }));
    // 300 - 4 in slots - 50 uncommitted = 246 waiting at 50 a second.
    expect(expectedWaitMs(readings, 4, CEILING, 100_000)).toBe(4_920);
  });

  it('is endless once the lane has not moved for half the ceiling while jobs wait, and nothing before', () => {
    expect(expectedWaitMs(lane({ seconds: 14, lag: 10, drainEach: 0, members: 0 }), 4, CEILING, 100_000)).toBe(Infinity);
    // A renderer restarting for a few seconds is not a stalled lane.
    expect(expectedWaitMs(lane({ seconds: 5, lag: 10, drainEach: 0, members: 0 }), 4, CEILING, 100_000)).toBe(0);
  });

  it('takes the pace from the time the lane had jobs in it: a burst after a quiet spell is neither slow nor stalled', () => {
    const quiet = lane({ seconds: 20, lag: 0, drainEach: 0, now: 99_000 });
    // Twenty quiet seconds at position 500, then 7 jobs in the lane and one committed.
    expect(expectedWaitMs([...quiet, { at: 100_000, lag: 7, position: 501, members: 1 }], 4, CEILING, 100_000)).toBe(0);
    expect(expectedWaitMs([...quiet, { at: 100_000, lag: 7, position: 500, members: 1 }], 4, CEILING, 100_000)).toBe(0);
    // A second of a burst says nothing of its pace: the one commit in it may have gone out at its start (one job
    // committed, 59 in the lag, most of them converted already). bench/http's sync phase was refused this way.
    const burst = [...quiet, { at: 99_070, lag: 1, position: 500, members: 1 }, { at: 100_085, lag: 59, position: 501, members: 1 }];
    expect(expectedWaitMs(burst, 4, CEILING, 100_085)).toBe(0);
    // Three seconds of work at 6 a second with 28 in the lag: 4 in the slots, 6 uncommitted, 18 waiting: 3 s.
    const busy = [...quiet, ...[0, 1, 2, 3].map((i) => ({ at: 100_000 + i * 1000, lag: 28, position: 500 + i * 6, members: 1 }))];
    expect(expectedWaitMs(busy, 4, CEILING, 103_000)).toBe(3_000);
  });

  it('knows nothing without a fresh reading', () => {
    expect(expectedWaitMs([], 4, CEILING, 100_000)).toBe(0);
    expect(expectedWaitMs(lane({ seconds: 5, lag: 44, drainEach: 2 }), 4, CEILING, 106_000)).toBe(0);
  });
});

describe('admitSyncCall', () => {
  it('takes a call that would wait up to three quarters of the ceiling', () => {
    expect(admitSyncCall(0, CEILING)).toEqual({ accepted: true });
    expect(admitSyncCall(20_250, CEILING)).toEqual({ accepted: true });
  });

  it('refuses one that would wait longer, and says when to come back (1 to 30 s)', () => {
    expect(admitSyncCall(20_251, CEILING)).toEqual({ accepted: false, retryAfterSeconds: 1, waitMs: 20_251 });
    expect(admitSyncCall(30_250, CEILING)).toMatchObject({ accepted: false, retryAfterSeconds: 10 });
    expect(admitSyncCall(500_000, CEILING)).toMatchObject({ retryAfterSeconds: 30 });
    expect(admitSyncCall(Infinity, CEILING)).toMatchObject({ accepted: false, retryAfterSeconds: 30 });
  });
});
