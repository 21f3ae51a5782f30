import type { DeliveryOutcome } from '@folio/events';

/** How one POST ended: the receiver's status, or why there was none. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Any 2xx ends the schedule; the answer's body is ignored. A redirect is an answer like any other non-2xx. */
export function isDelivered(result: AttemptResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

/**
 * What follows attempt number `attempt` (1-based): nothing once delivered, otherwise the next retry after its delay
 * (`delaysMs[attempt - 1]`, FOLIO_WEBHOOK_RETRY_DELAYS), until the delays run out: 1 + delays.length attempts in all.
 */
export function afterAttempt(
  attempt: number,
  result: AttemptResult,
  delaysMs: readonly number[],
  now: Date,
): { outcome: DeliveryOutcome; nextAttemptAt: Date | null } {
  if (isDelivered(result)) return { outcome: 'delivered', nextAttemptAt: null };
  const delay = delaysMs[attempt - 1];
  if (delay === undefined) return { outcome: 'gave_up', nextAttemptAt: null };
  return { outcome: 'retrying', nextAttemptAt: new Date(now.getTime() + delay) };
}
