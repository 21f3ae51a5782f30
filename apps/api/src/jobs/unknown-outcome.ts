import type { Sql } from '@folio/db';
import { jobMetrics } from '@folio/metrics';
import { backoffMs, classifyFailure } from '@folio/event-log';

/**
 * How long after a write to the log whose outcome is unknown (the producer was replaced mid-request, see
 * PublishTimeoutError) the API looks whether its job reached the read model. The projector folds an event within
 * seconds, even behind a restart; a job still missing after this never reached the log.
 */
export const SETTLE_UNKNOWN_MS = 30_000;

/** True for an error whose write may have reached the log after all. */
export function outcomeUnknown(error: unknown): boolean {
  return (error as { ambiguous?: unknown } | null)?.ambiguous === true;
}

/**
 * Writes a job's events so that the caller's answer can match the log. A write whose outcome is unknown (the producer
 * was replaced mid-request: the broker may have appended it before it went away) is written again — the same events,
 * the same event ids — with backoff, until a copy is known to be in the log or `until` has passed. A second copy
 * of a JobQueued is harmless: the projector applies an event id once, and a renderer converts a job once in a batch
 * and does not convert a job again once it is final. Answering the caller "refused" while the first copy may land
 * would let a job run and be metered for a caller who was told it was not. Only when no copy can be confirmed by
 * `until` (a timestamp; by default SETTLE_UNKNOWN_MS after the first failure) is the first error thrown, still
 * ambiguous: `releaseUnlessQueued` then waits for the read model.
 */
export async function publishUntilKnown(publish: () => Promise<void>, until?: number): Promise<void> {
  try {
    return await publish();
  } catch (error) {
    if (!outcomeUnknown(error)) throw error;
    const by = until ?? Date.now() + SETTLE_UNKNOWN_MS;
    for (let retry = 1; Date.now() < by; retry++) {
      await new Promise((r) => setTimeout(r, Math.min(backoffMs(retry), Math.max(0, by - Date.now()))));
      try {
        await publish();
        jobMetrics().rewritten.inc({ settled: 'appended' });
        return;
      } catch (again) {
        // A refusal for good (the registry or the broker will never take it) cannot be waited out; the first copy's
        // fate is still unknown, so it is that error the caller gets.
        if (classifyFailure(again) === 'permanent') break;
      }
    }
    jobMetrics().rewritten.inc({ settled: 'unknown' });
    throw error;
  }
}

/**
 * What a request reserved for its job (a free key's document, an Idempotency-Key's claim) is given back at once when
 * the job certainly never reached the log; when that is unknown, only once the read model shows it did not: giving
 * it back while the event might still land would let a retry convert (and count) the same request twice. A process
 * that dies before the check leaves the reservation to its expiry.
 */
export function releaseUnlessQueued(sql: Sql, jobId: string, error: unknown, release: () => Promise<void>, afterMs = SETTLE_UNKNOWN_MS): Promise<void> {
  if (!outcomeUnknown(error)) return release().catch(() => {});
  setTimeout(() => {
    void (async () => {
      const [queued] = await sql`select 1 from jobs where job_id = ${jobId}`;
      if (!queued) await release();
    })().catch(() => {});
  }, afterMs).unref();
  return Promise.resolve();
}
