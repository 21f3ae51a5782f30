import { describe, expect, it } from 'vitest';
import { jobProcessing, type JobEvent } from '@folio/events';
import { applyRecords, endsOf, type EventBatch, type LoggedRecord, type RecordsContext, type Unapplicable } from './apply-records.ts';

const JOB = (n: number) => `0190f0f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const events = new Map<string, JobEvent>();
/** A record whose value names an event of the test (or garbage). */
const record = (topic: string, partition: number, offset: number, name: string): LoggedRecord => ({ topic, partition, offset, key: null, value: Buffer.from(name) });
for (let n = 0; n < 10; n++) events.set(`e${n}`, jobProcessing(JOB(n), 1, 'w'));

function context(handle: (batch: EventBatch) => Promise<void>): RecordsContext & { handled: EventBatch[]; setAside: Unapplicable[] } {
  const handled: EventBatch[] = [];
  const setAside: Unapplicable[] = [];
  return {
    handled,
    setAside,
    decode: async (value) => {
      const event = events.get(value.toString());
      if (!event) throw new Error('not an event');
      return event;
    },
    handle: async (batch) => {
      await handle(batch);
      handled.push(batch);
    },
    unapplicable: async (what) => {
      setAside.push(what);
    },
    waiting: { active: () => true },
    tries: 2,
  };
}

describe('applying what a fetch brought', () => {
  it('applies the batch whole, across partitions, and returns each partition\'s end', async () => {
    const records = [record('a', 0, 5, 'e0'), record('a', 1, 9, 'e1'), record('a', 0, 6, 'e2')];
    const ctx = context(async () => {});
    expect(await applyRecords(records, ctx)).toEqual([
      { topic: 'a', partition: 0, next_offset: 7 },
      { topic: 'a', partition: 1, next_offset: 10 },
    ]);
    expect(ctx.handled).toHaveLength(1);
    expect(ctx.handled[0]!.events.map((e) => [e.partition, e.offset])).toEqual([[0, 5], [1, 9], [0, 6]]);
  });

  it('sets aside a record that does not decode, and moves past it', async () => {
    const ctx = context(async () => {});
    const ends = await applyRecords([record('a', 0, 0, 'e0'), record('a', 0, 1, 'garbage'), record('a', 0, 2, 'e2')], ctx);
    expect(ctx.setAside.map((u) => [u.offset, u.event, u.tries])).toEqual([[1, null, 2]]);
    expect(ctx.handled[0]!.events.map((e) => e.offset)).toEqual([0, 2]);
    expect(ends).toEqual([{ topic: 'a', partition: 0, next_offset: 3 }]);
  });

  it('finds the event at fault when the batch cannot be applied whole: only it is set aside, after its tries', async () => {
    const poison = events.get('e1')!.event_id;
    const ctx = context(async (batch) => {
      if (batch.events.some((e) => e.event.event_id === poison)) throw new Error('constraint violated');
    });
    const ends = await applyRecords([record('a', 0, 0, 'e0'), record('a', 0, 1, 'e1'), record('a', 0, 2, 'e2')], ctx);
    expect(ctx.setAside.map((u) => [u.offset, u.event?.event_id, u.tries])).toEqual([[1, poison, 2]]);
    // e0 and e2 each alone, in log order; then the batch's ends so a checkpoint moves past the culprit.
    expect(ctx.handled.map((b) => [b.events.map((e) => e.offset), b.ends])).toEqual([
      [[0], [{ topic: 'a', partition: 0, next_offset: 1 }]],
      [[2], [{ topic: 'a', partition: 0, next_offset: 3 }]],
      [[], [{ topic: 'a', partition: 0, next_offset: 3 }]],
    ]);
    expect(ends).toEqual([{ topic: 'a', partition: 0, next_offset: 3 }]);
  });

  it('retries a transient failure in place, the batch whole, nothing set aside', async () => {
    let failures = 2;
    const ctx = context(async () => {
      if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    await applyRecords([record('a', 0, 0, 'e0'), record('a', 0, 1, 'e1')], ctx);
    expect(ctx.handled).toHaveLength(1);
    expect(ctx.setAside).toEqual([]);
  }, 10_000);

  it('knows each partition\'s end from any order of records', () => {
    expect(endsOf([record('b', 2, 4, 'x'), record('b', 2, 3, 'x')])).toEqual([{ topic: 'b', partition: 2, next_offset: 5 }]);
  });
});
