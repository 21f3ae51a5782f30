/** How the pool makes, checks and disposes of what it keeps warm (Chromium tabs in production). */
export interface WarmFactory<T> {
  create(): Promise<T>;
  /** Disposal is best effort: it must not throw. */
  destroy(resource: T): Promise<void>;
  /** False once a resource cannot serve again (crashed, closed, its browser gone). */
  usable(resource: T): boolean;
}

export interface WarmPoolOptions {
  /** Resources kept warm, and so the most lent at once. */
  size: number;
  /** Uses after which a resource is replaced (bounds what a long-lived Chromium tab accumulates). */
  recycleAfter: number;
}

export interface AcquireOptions {
  /** Gives up (rejecting with the signal's reason) when it aborts, whether waiting for a slot or for a resource. */
  signal?: AbortSignal;
  /** A newly made resource rather than a warm one (a retry after a crash may not trust a warm one yet). */
  fresh?: boolean;
}

export class PoolClosedError extends Error {
  constructor() {
    super('the pool is closed');
    this.name = 'PoolClosedError';
  }
}

/** A creation whose slot moved on (closed, or discarded for a fresh one) while it ran; its result was disposed of. */
class SupersededError extends Error {}

interface Slot<T> {
  resource?: T;
  /** The slot's resource being made; it installs itself in the slot when it succeeds. */
  pending?: Promise<T>;
  uses: number;
  busy: boolean;
}

export interface Lease<T> {
  readonly resource: T;
}

interface Waiter<T> {
  grant(slot: Slot<T>): void;
  fail(err: unknown): void;
}

/**
 * A fixed number of warm resources, lent one borrower at a time. A resource is replaced after `recycleAfter` uses, or
 * at once when the borrower says it is broken; replacements are made in the background so the next borrower finds one
 * warm. Borrowers are served first come, first served and can give up (an AbortSignal: the render's time budget).
 * A small pool of its own because generic-pool and friends are not dependencies here and the needs are narrow.
 */
export class WarmPool<T> {
  private readonly slots: Slot<T>[];
  private readonly waiters: Waiter<T>[] = [];
  private readonly leases = new Map<Lease<T>, Slot<T>>();
  private closed = false;

  private readonly factory: WarmFactory<T>;
  private readonly options: WarmPoolOptions;
  constructor(
    factory: WarmFactory<T>,
    options: WarmPoolOptions,
  ) {
    this.factory = factory;
    this.options = options;
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`pool size must be a positive integer, got ${options.size}`);
    if (!(options.recycleAfter >= 1)) throw new RangeError(`recycleAfter must be at least 1, got ${options.recycleAfter}`);
    this.slots = Array.from({ length: options.size }, () => ({ uses: 0, busy: false }));
  }

  /** Makes every missing resource now; fails if one cannot be made (so a broken setup shows at start). */
  async warm(): Promise<void> {
    const making = this.slots.filter((s) => !s.busy && !this.hasUsable(s)).map((slot) => {
      if (!slot.pending) this.replace(slot);
      return slot.pending!;
    });
    await Promise.all(making);
  }

  /** Starts re-making, in the background, every idle resource that can no longer serve (a crashed tab, a dead browser). */
  refreshIdle(): void {
    if (this.closed) return;
    for (const slot of this.slots) if (!slot.busy && !slot.pending && !this.hasUsable(slot)) this.replace(slot);
  }

  /** Lends a resource; waits for a slot when all are lent. */
  async acquire(options: AcquireOptions = {}): Promise<Lease<T>> {
    const { signal, fresh = false } = options;
    if (this.closed) throw new PoolClosedError();
    signal?.throwIfAborted();
    const slot = this.freeSlot() ?? (await this.waitForSlot(signal));
    try {
      if (fresh) this.discard(slot);
      const resource = await abortable(this.ready(slot, signal), signal);
      const lease: Lease<T> = { resource };
      this.leases.set(lease, slot);
      return lease;
    } catch (err) {
      this.handBack(slot);
      throw err;
    }
  }

  /** Returns a lent resource; `broken` replaces it now instead of lending it again. */
  release(lease: Lease<T>, broken = false): void {
    const slot = this.leases.get(lease);
    if (!slot) return; // released twice
    this.leases.delete(lease);
    slot.uses += 1;
    if (this.closed) this.discard(slot);
    else if (broken || slot.uses >= this.options.recycleAfter || !this.factory.usable(lease.resource)) this.replace(slot);
    this.handBack(slot);
  }

  /** Refuses new borrowers, fails waiting ones, and disposes of every idle resource (lent ones go when returned). */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.fail(new PoolClosedError());
    const making: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      if (slot.busy) continue;
      if (slot.pending) making.push(slot.pending);
      this.discard(slot);
    }
    await Promise.allSettled(making); // each disposes of what it made, the pool being closed
  }

  /** Counts for metrics and tests. */
  stats(): { size: number; busy: number; waiting: number; warm: number } {
    return {
      size: this.slots.length,
      busy: this.slots.filter((s) => s.busy).length,
      waiting: this.waiters.length,
      warm: this.slots.filter((s) => this.hasUsable(s)).length,
    };
  }

  private hasUsable(slot: Slot<T>): boolean {
    return slot.resource !== undefined && this.factory.usable(slot.resource);
  }

  private freeSlot(): Slot<T> | undefined {
    const free = this.slots.filter((s) => !s.busy);
    const pick = free.find((s) => this.hasUsable(s)) ?? free.find((s) => s.pending) ?? free[0];
    if (pick) pick.busy = true;
    return pick;
  }

  private waitForSlot(signal?: AbortSignal): Promise<Slot<T>> {
    return new Promise<Slot<T>>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter<T> = {
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * The slot's resource, made now if it has none that can serve. A failed background replacement gets one more try
   * of the borrower's own. A borrower that gave up (aborted) stops here, so it never touches a slot lent to another.
   */
  private async ready(slot: Slot<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (this.hasUsable(slot)) return slot.resource!;
      if (this.closed) throw new PoolClosedError();
      if (!slot.pending) this.replace(slot);
      try {
        await slot.pending;
      } catch (err) {
        if (attempt >= 2 || signal?.aborted || this.closed) throw err;
        continue;
      }
      if (signal?.aborted) throw signal.reason;
      if (attempt >= 2 && !this.hasUsable(slot)) throw new Error('a newly made resource could not serve');
    }
  }

  /** A busy slot goes to the first waiter, else becomes free. */
  private handBack(slot: Slot<T>): void {
    const waiter = this.closed ? undefined : this.waiters.shift();
    if (waiter) waiter.grant(slot);
    else slot.busy = false;
  }

  private discard(slot: Slot<T>): void {
    const old = slot.resource;
    slot.resource = undefined;
    slot.pending = undefined; // a creation under way sees it was superseded and disposes of its result
    slot.uses = 0;
    if (old !== undefined) void this.factory.destroy(old);
  }

  /** Discards the slot's resource and starts making its replacement, which installs itself when done. */
  private replace(slot: Slot<T>): void {
    this.discard(slot);
    const pending: Promise<T> = this.factory.create().then(
      async (made) => {
        if (this.closed || slot.pending !== pending) {
          await this.factory.destroy(made);
          throw this.closed ? new PoolClosedError() : new SupersededError('superseded');
        }
        slot.resource = made;
        slot.pending = undefined;
        return made;
      },
      (err: unknown) => {
        if (slot.pending === pending) slot.pending = undefined;
        throw err;
      },
    );
    pending.catch(() => {}); // background replacements may fail unobserved; a borrower awaiting it sees the error
    slot.pending = pending;
  }
}

/** `work`, unless the signal aborts first (the work goes on; its result is the pool's to keep). */
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
