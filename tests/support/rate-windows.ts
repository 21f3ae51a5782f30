import { WINDOW_MS } from '../../apps/api/src/rate-limits/budgets.ts';

export { windowStart } from '../../apps/api/src/rate-limits/budgets.ts';

/**
 * Waits for the next rate-limit window when less than `needed` ms of the current one are left. The windows are
 * aligned on the clock (every API process agrees on them), so requests a test expects to share one budget must not
 * straddle a boundary, which a slow or busy machine otherwise makes them do now and then.
 */
export async function freshWindow(needed = 20_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < needed) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Waits until `left` ms of a window are left (in the next window when fewer are left now), so that a budget spent
 * then resets soon.
 */
export async function lateInWindow(left: number): Promise<void> {
  const into = Date.now() % WINDOW_MS;
  await new Promise((resolve) => setTimeout(resolve, (WINDOW_MS - left - into + WINDOW_MS) % WINDOW_MS));
}
