/**
 * Whether a new synchronous call can finish within the ceiling, from what the log says of the sync lane: a call the
 * renderers cannot reach in time is refused at once (rate_limited, Retry-After) rather than accepted to wait the whole
 * ceiling for render_timeout. Pure: the readings come from `SyncLane`.
 */

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
 * How long a job queued now would wait for a renderer, in ms (Infinity: the lane has not moved for half the ceiling
 * while jobs were in it). Jobs up to the renderers' slots (`members × slotsEach`) are being converted, not waiting; the
 * rest drain at the pace the lane's committed position advanced while it had jobs in it over the last 10 s (time the
 * lane stood empty says nothing of its pace: counted in, a burst after a quiet spell would look like a stalled lane).
 * Too few readings to tell (a call after a quiet spell) count as no wait: the first calls of a burst are taken, and
 * the readings that follow decide.
 */
export function expectedWaitMs(readings: LaneReading[], slotsEach: number, ceilingMs: number, now: number): number {
  const latest = readings.at(-1);
  if (!latest || latest.at < now - READING_FRESH_MS) return 0;
  const waiting = latest.lag - latest.members * slotsEach;
  if (waiting <= 0) return 0;
  const kept = readings.filter((r) => r.at >= latest.at - READINGS_KEPT_MS);
  let busyMs = 0;
  let drained = 0;
  for (let i = 1; i < kept.length; i++) {
    const [before, after] = [kept[i - 1]!, kept[i]!];
    if (before.lag === 0) continue;
    busyMs += after.at - before.at;
    drained += after.position - before.position;
  }
  if (drained > 0 && busyMs > 0) return (waiting * busyMs) / drained;
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
