import type { Sql } from '@folio/db';

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
