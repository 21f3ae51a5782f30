import { createRequire } from 'node:module';

// The mend Folio applied to kafkajs 2.2.4 while it ran on kafkajs (until it moved to @platformatic/kafka): kept here so
// that bench/kafka-clients measures kafkajs as Folio ran it, beside kafkajs as released.

/**
 * The part of kafkajs' per-connection request queue this module mends (kafkajs 2.2.4, `src/network/requestQueue`).
 */
interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** How soon requests held back by the in-flight limit are looked at again (kafkajs' own interval). */
export const RECHECK_PENDING_MS = 10;

/**
 * kafkajs 2.2.4 re-arms a timer after every check of its request queue, even when nothing waits in it, with a
 * negative delay when no broker throttling is in force: every connection of every client runs a 1 ms timer loop for
 * as long as it is open (kafkajs issues #1556 and #1704; the fix, PR #1667, was never released). Measured here: each
 * idle Folio process woke ~1,700 times a second and spent ~30 ms of CPU a second on it, and a busy one as much on top
 * of its work; on Node 24 the negative delay also prints TimeoutNegativeWarning. A check is needed only while
 * requests wait: at the end of a broker's throttle, or shortly, when they wait on the in-flight limit (a fulfilled
 * request looks at the queue anyway).
 */
export function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledFor = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, throttledFor > 0 ? throttledFor : RECHECK_PENDING_MS);
}

/** kafkajs' RequestQueue class (the package has no `exports` map, so its sources are reachable by path). */
export function kafkajsRequestQueue(): { prototype: RequestQueue } {
  return createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as { prototype: RequestQueue };
}

/** Puts the mended scheduling on every kafkajs connection in this process; idempotent. */
export function mendRequestQueue(): void {
  const { prototype } = kafkajsRequestQueue();
  if (typeof prototype.scheduleCheckPendingRequests !== 'function') {
    throw new Error('kafkajs RequestQueue has no scheduleCheckPendingRequests: review packages/event-log/src/request-queue.ts');
  }
  prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
}
