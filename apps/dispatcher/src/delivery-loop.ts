import type { Sql } from '@folio/db';
import { ConsumerStoppedError, type RetryContext } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { claimDueCallbacks, hostRoom, nextDueAt, type ScheduledCallback } from '@folio/webhooks';

export interface DeliveryLoopOptions {
  sql: Sql;
  /** Callbacks in flight in this process, and at most this many to one receiver host. */
  concurrency: number;
  hostConcurrency: number;
  /** How long a claimed callback stays invisible to other dispatchers: longer than an attempt can take. */
  leaseMs: number;
  deliver(callback: ScheduledCallback, waiting: RetryContext): Promise<void>;
  logger: Logger;
}

/**
 * How often an idle dispatcher looks at the schedule on its own, at the longest. Callbacks newly owed wake it at once
 * (the projector's NOTIFY), and a retry wakes it when it comes due; the look only finds claims of a dispatcher that
 * died running out, and whatever a lost notification left (a look costs Postgres round trips an idle process need not
 * pay every second).
 */
const POLL_MS = 5000;

/**
 * Sends owed callbacks as they come due, with bounded concurrency and per-host fairness: a receiver host is entitled
 * to `hostConcurrency` of the process's `concurrency` slots and may borrow idle ones beyond that, but the last
 * `hostConcurrency` free slots are kept for other hosts (`roomFor`). So slow receivers (up to the 10 s answer time
 * each) never take every slot, and callbacks to everyone else keep flowing. Several dispatcher processes share the
 * schedule through Postgres (claims skip rows another holds).
 */
export class DeliveryLoop {
  private running = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perHost = new Map<string, number>();
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private done: Promise<void> | null = null;

  private readonly options: DeliveryLoopOptions;
  constructor(options: DeliveryLoopOptions) {
    this.options = options;
  }

  start(): void {
    this.done = this.run();
  }

  /** Something may be due now (a callback was scheduled, or a slot came free). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming and waits for the attempts in flight (each ends within the answer time). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.done;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      this.woken = false;
      let claimed: ScheduledCallback[] = [];
      try {
        const free = this.options.concurrency - this.inFlight.size;
        claimed = await claimDueCallbacks(this.options.sql, {
          limit: free,
          room: (host) => this.roomFor(host, free),
          fullHosts: [...this.perHost.keys()].filter((host) => this.roomFor(host, free) <= 0),
          leaseMs: this.options.leaseMs,
        });
        failures = 0;
      } catch (error) {
        // Postgres away: nothing is lost (the schedule is in Postgres); look again after a pause.
        failures++;
        this.options.logger[failures >= 5 ? 'error' : 'warn']({ err: error }, 'due callbacks could not be read; trying again');
      }
      for (const callback of claimed) this.send(callback);
      if (claimed.length > 0 && this.inFlight.size < this.options.concurrency) continue;
      await this.idle(failures > 0 ? Math.min(10_000, 250 * 2 ** failures) : await this.untilNextDue());
    }
  }

  private roomFor(host: string, free: number): number {
    return hostRoom({ hostInFlight: this.perHost.get(host) ?? 0, free, share: this.options.hostConcurrency });
  }

  private send(callback: ScheduledCallback): void {
    const host = callback.host;
    this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
    const waiting: RetryContext = {
      active: () => this.running,
      onTransient: (error, retry, delayMs) =>
        this.options.logger[retry >= 5 ? 'error' : 'warn']({ err: error, job_id: callback.job_id, retry, delay_ms: delayMs }, 'recording a callback attempt waits: a store is away'),
    };
    const attempt = this.options
      .deliver(callback, waiting)
      .catch((error) => {
        // Stopping mid-record: the claim runs out and the attempt is made again by whoever claims it next.
        if (error instanceof ConsumerStoppedError) return;
        this.options.logger.error({ err: error, job_id: callback.job_id }, 'callback attempt failed unexpectedly; it is retried when its claim runs out');
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        const left = (this.perHost.get(host) ?? 1) - 1;
        if (left > 0) this.perHost.set(host, left);
        else this.perHost.delete(host);
        this.wake();
      });
    this.inFlight.add(attempt);
  }

  /** Milliseconds until the next callback comes due, within the poll interval. */
  private async untilNextDue(): Promise<number> {
    if (this.inFlight.size >= this.options.concurrency) return POLL_MS;
    try {
      const at = await nextDueAt(this.options.sql);
      if (!at) return POLL_MS;
      const ms = at.getTime() - Date.now();
      // Due already yet not claimed: its host has no room here (a slot coming free wakes the loop), or another
      // process holds it, or it came due just after the claim.
      if (ms <= 0) return this.perHost.size > 0 ? POLL_MS : 50;
      return Math.min(POLL_MS, ms);
    } catch {
      return POLL_MS;
    }
  }

  private async idle(ms: number): Promise<void> {
    if (this.woken || !this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
  }
}
