import type { Plan } from '@folio/keys';

/** The separate budgets a key spends: starting work, reading jobs, and the legacy endpoints. */
export type Bucket = 'convert' | 'poll' | 'legacy';

/** Length of a rate-limit window: the interface's limits are per minute. */
export const WINDOW_MS = 60_000;

/**
 * Requests per minute a key may make in each budget. Polling and the legacy rate are the interface's; starting work
 * on /v2/convert is Folio's choice: a free key can start a document a second (far beyond its 100 a month, so the
 * limit only guards against runaway loops), a paid key ten.
 */
export const BUDGETS: Record<Bucket, Record<Plan, number>> = {
  convert: { free: 60, paid: 600 },
  poll: { free: 120, paid: 600 },
  legacy: { free: 60, paid: 60 },
};

/** A key's budget, scaled by FOLIO_RATE_LIMIT_SCALE (1 in production; load tests may raise it). */
export function budgetOf(bucket: Bucket, plan: Plan, scale = 1): number {
  return Math.max(1, Math.round(BUDGETS[bucket][plan] * scale));
}

/** The start of the window a moment falls in (windows are aligned, so every process agrees on them). */
export function windowStart(now: number): number {
  return now - (now % WINDOW_MS);
}

/** Whole seconds until the window of `now` ends: what Retry-After and X-RateLimit-Reset say (at least 1). */
export function secondsToReset(now: number): number {
  return Math.max(1, Math.ceil((windowStart(now) + WINDOW_MS - now) / 1000));
}

/**
 * How many requests a process may admit on its own before it must add them to the shared count and learn the
 * others': a twentieth of the budget. This bounds what several processes can admit beyond the budget together, while
 * a process never refuses before the shared count says so.
 */
export function localAllowance(limit: number): number {
  return Math.max(1, Math.floor(limit / 20));
}
