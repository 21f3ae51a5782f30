import type { Sql } from '@folio/db';
import type { Logger } from '@folio/logging';
import { localAllowance, secondsToReset, windowStart, type Bucket } from './budgets.ts';

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

interface Counter {
  window: number;
  /** The count all processes had reported, as last learned from Postgres (this process's flushed requests included). */
  shared: number;
  /** Requests this process admitted and has not yet added to the shared count. */
  pending: number;
  flushing: Promise<void> | null;
}

/** How often admitted requests are added to the shared counts. */
const FLUSH_MS = 200;

/**
 * Per-key request budgets shared by every API process through Postgres, without a round trip per request: a process
 * decides from the shared count it last learned plus what it admitted since, and adds its requests to the shared
 * count a few times a second. Before admitting more than a twentieth of a budget on its own it waits for that flush,
 * so N processes together can exceed a budget by at most (N − 1) twentieths of it (6 polls of 120 with two API
 * processes); a process never refuses while the shared count is under the budget.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = 0;

  private readonly sql: Sql;
  private readonly logger: Logger;
  constructor(
    sql: Sql,
    logger: Logger,
  ) {
    this.sql = sql;
    this.logger = logger;
  }

  start(): void {
    this.timer = setInterval(() => void this.flushAll(), FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushAll();
  }

  async take(keyId: string, bucket: Bucket, limit: number, now = Date.now()): Promise<Decision> {
    const name = `${keyId}|${bucket}`;
    const window = windowStart(now);
    let counter = this.counters.get(name);
    if (!counter || counter.window !== window) {
      counter = { window, shared: 0, pending: 0, flushing: null };
      this.counters.set(name, counter);
    }
    // Out of this process's allowance: share it and learn the others' before admitting more. (Requests that waited
    // together may take the allowance again at once, so they wait for another flush, a few times at most.) A key
    // that is out of budget is refused without a flush: a flush only ever raises the count.
    const allowance = localAllowance(limit);
    for (let i = 0; i < 3 && counter.pending >= allowance && counter.shared + counter.pending < limit; i++) {
      await this.flush(name, counter);
    }
    const used = counter.shared + counter.pending;
    const resetSeconds = secondsToReset(now);
    if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    counter.pending++;
    return { allowed: true, limit, remaining: Math.max(0, limit - used - 1), resetSeconds };
  }

  /** Shares every counter's pending requests in one statement, whatever the number of keys. */
  private async flushAll(): Promise<void> {
    const now = Date.now();
    const batch: Array<{ name: string; counter: Counter; delta: number }> = [];
    for (const [name, counter] of this.counters) {
      if (counter.pending === 0) {
        if (counter.window < windowStart(now)) this.counters.delete(name);
      } else if (!counter.flushing) {
        batch.push({ name, counter, delta: counter.pending });
      }
    }
    if (batch.length > 0) await this.flushMany(batch);
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await this.sql`delete from rate_limit_windows where window_start < ${new Date(windowStart(now) - 5 * 60_000)}`.catch(() => {});
    }
  }

  private flushMany(batch: Array<{ name: string; counter: Counter; delta: number }>): Promise<void> {
    const ids = batch.map((b) => b.name.split('|') as [string, string]);
    // Rows are written in one order, so two processes flushing the same keys queue on them instead of deadlocking.
    const flushing: Promise<void> = this.sql<{ ord: number; count: number }[]>`
      with input as (
        select * from unnest(
          ${ids.map(([keyId]) => keyId)}::uuid[], ${ids.map(([, bucket]) => bucket)}::text[],
          ${batch.map((b) => new Date(b.counter.window).toISOString())}::timestamptz[], ${batch.map((b) => b.delta)}::int[]
        ) with ordinality as t(key_id, bucket, window_start, delta, ord)
      ), added as (
        insert into rate_limit_windows (key_id, bucket, window_start, count)
        select key_id, bucket, window_start, delta from input order by key_id, bucket, window_start
        on conflict (key_id, bucket, window_start) do update set count = rate_limit_windows.count + excluded.count
        returning key_id, bucket, window_start, count
      )
      select input.ord::int as ord, added.count from input join added using (key_id, bucket, window_start)`
      .then((rows) => {
        for (const row of rows) {
          const { counter, delta } = batch[row.ord - 1]!;
          counter.pending -= delta;
          counter.shared = row.count;
        }
      })
      .catch((error) => {
        this.logger.warn({ err: error }, 'rate-limit counts could not be shared; deciding locally for now');
      })
      .finally(() => {
        for (const { counter } of batch) if (counter.flushing === flushing) counter.flushing = null;
      });
    for (const { counter } of batch) counter.flushing = flushing;
    return flushing;
  }

  /** Adds this process's pending requests to the shared count and learns the total; one flush at a time per counter. */
  private flush(name: string, counter: Counter): Promise<void> {
    if (counter.flushing) return counter.flushing;
    const [keyId, bucket] = name.split('|') as [string, string];
    const delta = counter.pending;
    counter.flushing = this.sql<{ count: number }[]>`
      insert into rate_limit_windows (key_id, bucket, window_start, count)
      values (${keyId}, ${bucket}, ${new Date(counter.window)}, ${delta})
      on conflict (key_id, bucket, window_start) do update set count = rate_limit_windows.count + excluded.count
      returning count`
      .then(([row]) => {
        counter.pending -= delta;
        counter.shared = row?.count ?? counter.shared + delta;
      })
      .catch((error) => {
        // Postgres away: decide from what this process knows (it still never admits more than a budget on its own).
        this.logger.warn({ err: error }, 'rate-limit counts could not be shared; deciding locally for now');
      })
      .finally(() => {
        counter.flushing = null;
      });
    return counter.flushing;
  }
}
