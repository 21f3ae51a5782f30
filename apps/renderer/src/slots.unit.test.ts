import { describe, expect, it } from 'vitest';
import { RenderSlots } from './slots.ts';

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('render slots', () => {
  it('hands a freed slot to a waiting sync job before any async one', async () => {
    const slots = new RenderSlots(1);
    const first = await slots.acquire('async');
    const kept = await slots.acquire('sync'); // the slot kept for sync
    const order: string[] = [];
    const a = slots.acquire('async').then((s) => (order.push('async'), s));
    const s = slots.acquire('sync').then((s) => (order.push('sync'), s));
    await tick();
    expect(order).toEqual([]);
    first.release();
    (await s).release();
    kept.release();
    (await a).release();
    expect(order).toEqual(['sync', 'async']);
  });

  it('keeps a slot that async jobs never hold, so a sync job starts at once beside a full async lane', async () => {
    const slots = new RenderSlots(2);
    const asyncs = [await slots.acquire('async'), await slots.acquire('async')];
    let third = false;
    const p = slots.acquire('async').then((s) => ((third = true), s));
    const sync = await slots.acquire('sync');
    sync.release();
    await tick();
    expect(third).toBe(false); // the freed slot was the one kept for sync
    asyncs[0]!.release();
    (await p).release();
    expect(third).toBe(true);
    asyncs[1]!.release();
  });

  it('never hands out more slots than it has, and a double release frees one slot only', async () => {
    const slots = new RenderSlots(2);
    const one = await slots.acquire('sync');
    await slots.acquire('sync');
    await slots.acquire('sync');
    let fourth = false;
    const p = slots.acquire('sync').then(() => (fourth = true));
    await tick();
    expect(fourth).toBe(false);
    one.release();
    one.release();
    await p;
    let fifth = false;
    void slots.acquire('sync').then(() => (fifth = true));
    await tick();
    expect(fifth).toBe(false);
  });

  it('lets a job run alone once the jobs beside it finish, and starts no other job meanwhile', async () => {
    const slots = new RenderSlots(3);
    const suspect = await slots.acquire('async');
    const bystander = await slots.acquire('sync');
    let alone = false;
    const isolated = suspect.isolate().then(() => (alone = true));
    let newcomer = false;
    const later = slots.acquire('sync').then((s) => ((newcomer = true), s));
    await tick();
    expect([alone, newcomer]).toEqual([false, false]);
    bystander.release();
    await isolated;
    await tick();
    expect(newcomer).toBe(false);
    suspect.release();
    (await later).release();
    expect(newcomer).toBe(true);
  });

  it('two jobs that want to run alone take turns instead of waiting for each other', async () => {
    const slots = new RenderSlots(2);
    const a = await slots.acquire('async');
    const b = await slots.acquire('async');
    const order: string[] = [];
    const ia = a.isolate().then(() => order.push('a'));
    const ib = b.isolate().then(() => order.push('b'));
    await ia;
    a.release();
    await ib;
    b.release();
    expect(order).toEqual(['a', 'b']);
    const c = await slots.acquire('sync');
    const d = await slots.acquire('sync');
    c.release();
    d.release();
  });
});
