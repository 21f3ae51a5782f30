import { describe, expect, it } from 'vitest';
import { PoolClosedError, WarmPool, type WarmFactory } from './warm-pool.ts';

interface Thing {
  id: number;
  broken: boolean;
  destroyed: boolean;
}

/** Numbered things; `failures` makes that many next creations fail. */
function things(): WarmFactory<Thing> & { made: Thing[]; failures: number } {
  const made: Thing[] = [];
  const factory = {
    made,
    failures: 0,
    async create(): Promise<Thing> {
      await new Promise((r) => setTimeout(r, 1));
      if (factory.failures > 0) {
        factory.failures -= 1;
        throw new Error('cannot make');
      }
      const thing = { id: made.length + 1, broken: false, destroyed: false };
      made.push(thing);
      return thing;
    },
    async destroy(thing: Thing): Promise<void> {
      thing.destroyed = true;
    },
    usable: (thing: Thing) => !thing.broken && !thing.destroyed,
  };
  return factory;
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('WarmPool', () => {
  it('warms every slot up front and lends warm resources', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 3, recycleAfter: 100 });
    await pool.warm();
    expect(factory.made).toHaveLength(3);
    const a = await pool.acquire();
    const b = await pool.acquire();
    expect(a.resource).not.toBe(b.resource);
    expect(factory.made).toHaveLength(3); // nothing made on demand
    expect(pool.stats()).toEqual({ size: 3, busy: 2, waiting: 0, warm: 3 });
  });

  it('never lends more than its size, and serves waiters first come, first served', async () => {
    const pool = new WarmPool(things(), { size: 1, recycleAfter: 100 });
    await pool.warm();
    const first = await pool.acquire();
    const order: string[] = [];
    const second = pool.acquire().then((l) => (order.push('second'), l));
    const third = pool.acquire().then((l) => (order.push('third'), l));
    await tick();
    expect(order).toEqual([]);
    expect(pool.stats().waiting).toBe(2);
    pool.release(first);
    pool.release(await second);
    pool.release(await third);
    expect(order).toEqual(['second', 'third']);
  });

  it('replaces a resource after recycleAfter uses, in the background', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 1, recycleAfter: 2 });
    await pool.warm();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const lease = await pool.acquire();
      ids.push(lease.resource.id);
      pool.release(lease);
    }
    expect(ids).toEqual([1, 1, 2, 2, 3]);
    expect(factory.made.slice(0, 2).every((t) => t.destroyed)).toBe(true);
  });

  it('replaces a resource the borrower says is broken, or that broke while lent', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 1, recycleAfter: 100 });
    await pool.warm();
    const a = await pool.acquire();
    pool.release(a, true);
    const b = await pool.acquire();
    expect(b.resource.id).toBe(2);
    expect(a.resource.destroyed).toBe(true);
    b.resource.broken = true; // e.g. its tab crashed
    pool.release(b);
    expect((await pool.acquire()).resource.id).toBe(3);
  });

  it('re-makes idle resources that stopped being usable (refreshIdle), e.g. after a browser restart', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 2, recycleAfter: 100 });
    await pool.warm();
    for (const t of factory.made) t.broken = true;
    pool.refreshIdle();
    await tick();
    expect(pool.stats().warm).toBe(2);
    expect(factory.made.map((t) => t.id)).toEqual([1, 2, 3, 4]);
  });

  it('lets a waiter give up when its signal aborts, without losing the slot', async () => {
    const pool = new WarmPool(things(), { size: 1, recycleAfter: 100 });
    await pool.warm();
    const held = await pool.acquire();
    const controller = new AbortController();
    const gaveUp = pool.acquire({ signal: controller.signal });
    controller.abort(new Error('out of time'));
    await expect(gaveUp).rejects.toThrow('out of time');
    expect(pool.stats().waiting).toBe(0);
    pool.release(held);
    const next = await pool.acquire();
    expect(next.resource.id).toBe(1);
  });

  it('lends a newly made resource when asked for a fresh one', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 1, recycleAfter: 100 });
    await pool.warm();
    const lease = await pool.acquire({ fresh: true });
    expect(lease.resource.id).toBe(2);
    expect(factory.made[0]!.destroyed).toBe(true);
  });

  it('lets a borrower give up while its resource is being made, and keeps what was made for the next one', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 1, recycleAfter: 100 });
    const controller = new AbortController();
    const gaveUp = pool.acquire({ signal: controller.signal }); // nothing warm: it has to wait for create()
    controller.abort(new Error('out of time'));
    await expect(gaveUp).rejects.toThrow('out of time');
    const next = await pool.acquire();
    expect(next.resource.id).toBe(1);
    expect(factory.made).toHaveLength(1);
    expect(next.resource.destroyed).toBe(false);
  });

  it('tries a failed creation once more, then fails the borrower and hands the slot back', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 1, recycleAfter: 100 });
    factory.failures = 1;
    expect((await pool.acquire()).resource.id).toBe(1); // the second attempt succeeded
    const other = new WarmPool(factory, { size: 1, recycleAfter: 100 });
    factory.failures = 2;
    await expect(other.acquire()).rejects.toThrow('cannot make');
    expect(other.stats().busy).toBe(0);
    expect((await other.acquire()).resource.id).toBe(2);
  });

  it('on close fails waiters, refuses borrowers and disposes of everything, lent ones when returned', async () => {
    const factory = things();
    const pool = new WarmPool(factory, { size: 2, recycleAfter: 100 });
    await pool.warm();
    const a = await pool.acquire();
    const b = await pool.acquire();
    const waiting = pool.acquire();
    await pool.close();
    await expect(waiting).rejects.toBeInstanceOf(PoolClosedError);
    await expect(pool.acquire()).rejects.toBeInstanceOf(PoolClosedError);
    expect(factory.made.some((t) => t.destroyed)).toBe(false); // both are lent
    pool.release(a);
    pool.release(b);
    expect(factory.made.every((t) => t.destroyed)).toBe(true);
  });

  it('refuses a size or recycle count that makes no sense', () => {
    expect(() => new WarmPool(things(), { size: 0, recycleAfter: 1 })).toThrow(RangeError);
    expect(() => new WarmPool(things(), { size: 1.5, recycleAfter: 1 })).toThrow(RangeError);
    expect(() => new WarmPool(things(), { size: 1, recycleAfter: 0 })).toThrow(RangeError);
  });
});
