import { describe, expect, it } from 'vitest';
import { RenderSlots } from './slots.ts';

describe('render slots', () => {
  it('hands a freed slot to a waiting sync job before any async one', async () => {
    const slots = new RenderSlots(1);
    const release = await slots.acquire('async');
    const order: string[] = [];
    const a = slots.acquire('async').then((r) => (order.push('async'), r));
    const s = slots.acquire('sync').then((r) => (order.push('sync'), r));
    release();
    (await s)();
    (await a)();
    expect(order).toEqual(['sync', 'async']);
  });

  it('never hands out more slots than it has, and a double release frees one slot only', async () => {
    const slots = new RenderSlots(2);
    const r1 = await slots.acquire('sync');
    await slots.acquire('sync');
    let third = false;
    const p = slots.acquire('async').then(() => (third = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    r1();
    r1();
    await p;
    let fourth = false;
    void slots.acquire('async').then(() => (fourth = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(fourth).toBe(false);
  });
});
