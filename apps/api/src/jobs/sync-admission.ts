/**
 * Whether a new synchronous call can finish within the ceiling, from what the log says of the sync lane: a call the
 * renderers cannot reach in time is refused at once (rate_limited, Retry-After) rather than accepted to wait the whole
 * ceiling for render_timeout. Pure: the readings come from `SyncLane`.
 */
import { COMMIT_EVERY_MS } from '@folio/event-log';

/** The sync lane as the log showed it at one moment. */
export interface LaneReading {
  /** When it was read (ms since the epoch). */
  at: number;
  /** Sync jobs in the log that the renderers have not committed: waiting, and being converted. */
  lag: number;
  /** The renderers' committed offsets, summed over the lane's partitions: how far they have come, ever. */
  position: number;
  /** Renderer processes consuming the lane. */
  members: number;
}

/** The drain rate is taken over the readings of this long. */
export const READINGS_KEPT_MS = 10_000;
/** A last reading older than this says nothing about the lane now (the broker away, or no call for a while). */
export const READING_FRESH_MS = 5_000;
/**
 * A drain rate is trusted once the lane has been seen busy this long. Renderers commit at most once a
 * `COMMIT_EVERY_MS`, so the committed position moves in steps a second apart: over the first second of a burst it may
 * have moved by one job while fifty were converted (the commit went out early in that second), which read as a lane
 * draining one job a second would refuse every call. Over three commit intervals a step is at most a third of the
 * measure.
 */
export const MIN_BUSY_MS = 3 * COMMIT_EVERY_MS;

/**
 * How long a job queued now would wait for a renderer, in ms (Infinity: the lane has not moved for half the ceiling
 * while jobs were in it). The lag is counted from committed offsets, so it holds, beside the jobs waiting, the ones
 * being converted (up to the renderers' slots, `members × slotsEach`) and the ones converted since the last commit
 * (up to a commit interval's worth at the drain rate): neither waits. The rest drain at the pace the lane's committed
 * position advanced while it had jobs in it over the last 10 s (time the lane stood empty says nothing of its pace:
 * counted in, a burst after a quiet spell would look like a stalled lane). Too little busy time to tell (the first
 * seconds of a burst) counts as no wait: the first calls of a burst are taken, and the readings that follow decide.
 */
export function expectedWaitMs(readings: LaneReading[], slotsEach: number, ceilingMs: number, now: number): number {
  const latest = readings.at(-1);
  if (!latest || latest.at < now - READING_FRESH_MS) return 0;
  if (latest.lag - latest.members * slotsEach <= 0) return 0;
  const kept = readings.filter((r) => r.at >= latest.at - READINGS_KEPT_MS);
  let busyMs = 0;
  let drained = 0;
  for (let i = 1; i < kept.length; i++) {
    const [before, after] = [kept[i - 1]!, kept[i]!];
    if (before.lag === 0) continue;
    busyMs += after.at - before.at;
    drained += after.position - before.position;
  }
  if (drained > 0) {
    if (busyMs < MIN_BUSY_MS) return 0;
    const perMs = drained / busyMs;
    const waiting = latest.lag - latest.members * slotsEach - perMs * COMMIT_EVERY_MS;
    return waiting <= 0 ? 0 : waiting / perMs;
  }
  // Nothing committed while jobs were in the lane: stalled only once that has lasted; a renderer restarts in seconds.
  let since = latest.at;
  for (let i = readings.length - 1; i >= 0 && readings[i]!.lag > 0 && readings[i]!.position === latest.position; i--) since = readings[i]!.at;
  return latest.at - since >= ceilingMs / 2 ? Infinity : 0;
}

export type Admission = { accepted: true } | { accepted: false; retryAfterSeconds: number; waitMs: number };

/**
 * A call is refused when it would wait for a renderer more than three quarters of the ceiling (its conversion needs
 * the rest). It is told to come back when the backlog ahead of it should have drained below that, within 1–30 s.
 */
export function admitSyncCall(waitMs: number, ceilingMs: number): Admission {
  const most = (ceilingMs * 3) / 4;
  if (waitMs <= most) return { accepted: true };
  const retryAfterSeconds = Number.isFinite(waitMs) ? Math.min(30, Math.max(1, Math.ceil((waitMs - most) / 1000))) : 30;
  return { accepted: false, retryAfterSeconds, waitMs };
}
