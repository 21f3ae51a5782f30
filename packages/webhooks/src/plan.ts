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

/**
 * Callbacks one receiver host may start now, out of `free` idle slots: its `share` while it has fewer in flight;
 * beyond that it may borrow idle slots, but never the last `share` of them, which stay free for callbacks to any
 * other receiver. So a lone slow receiver still gets most of a dispatcher, and a fast one arriving meanwhile always
 * finds a slot.
 */
export function hostRoom(options: { hostInFlight: number; free: number; share: number }): number {
  const { hostInFlight, free, share } = options;
  return Math.max(0, Math.min(free, Math.max(share - hostInFlight, free - share)));
}
