import { describe, expect, it } from 'vitest';
import type { Sql } from '@folio/db';
import { PublishTimeoutError } from '@folio/event-log';
import { outcomeUnknown, publishUntilKnown, releaseUnlessQueued } from './unknown-outcome.ts';

/** A stand-in for the pool: `select 1 from jobs` finds the job when `queued` says so. */
const poolWith = (queued: boolean) => (async () => (queued ? [{ '?column?': 1 }] : [])) as unknown as Sql;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('giving back what a request reserved when its job may or may not have reached the log', () => {
  it('gives it back at once when the write certainly failed', async () => {
    let released = 0;
    await releaseUnlessQueued(poolWith(false), 'j', new Error('refused'), async () => void released++, 10);
    expect(released).toBe(1);
  });

  it('after an ambiguous write, gives it back only once the read model shows the job never arrived', async () => {
    let released = 0;
    const release = async () => void released++;
    await releaseUnlessQueued(poolWith(false), 'lost', new PublishTimeoutError(1), release, 10);
    expect(released).toBe(0); // not yet: the event might still land
    await wait(40);
    expect(released).toBe(1);
    await releaseUnlessQueued(poolWith(true), 'landed', new PublishTimeoutError(1), release, 10);
    await wait(40);
    expect(released).toBe(1); // the job is there: its reservation is its own now
  });

  it('tells an unknown outcome from a failure', () => {
    expect(outcomeUnknown(new PublishTimeoutError(5))).toBe(true);
    expect(outcomeUnknown(new Error('ECONNREFUSED'))).toBe(false);
    expect(outcomeUnknown(undefined)).toBe(false);
  });
});

describe('writing a JobQueued until its append is known', () => {
  /** A write that fails as told, call by call, then succeeds. */
  const writes = (...failures: unknown[]) => {
    let calls = 0;
    return {
      publish: async () => {
        const failure = failures[calls++];
        if (failure) throw failure;
      },
      calls: () => calls,
    };
  };
  const refusedForGood = Object.assign(new Error('record rejected'), { code: 'PLT_KFK_PROTOCOL', canRetry: false });

  it('writes once when the write settles either way', async () => {
    const ok = writes();
    await publishUntilKnown(ok.publish);
    expect(ok.calls()).toBe(1);
    // A certain failure is the caller's to answer (and to give back what it reserved at once): no second copy.
    const refused = writes(new Error('ECONNREFUSED'));
    await expect(publishUntilKnown(refused.publish)).rejects.toThrow('ECONNREFUSED');
    expect(refused.calls()).toBe(1);
  });

  it('writes the same events again after an unknown outcome, through the broker\'s absence, until a copy lands', async () => {
    const away = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const flaky = writes(new PublishTimeoutError(1), away, new PublishTimeoutError(1));
    await publishUntilKnown(flaky.publish, Date.now() + 10_000);
    expect(flaky.calls()).toBe(4);
  });

  it('gives up with the first, ambiguous, error at the deadline or on a refusal for good', async () => {
    const first = new PublishTimeoutError(1);
    const never = writes(first, ...Array.from({ length: 100 }, () => new PublishTimeoutError(1)));
    const started = Date.now();
    await expect(publishUntilKnown(never.publish, Date.now() + 600)).rejects.toBe(first);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(never.calls()).toBeGreaterThan(1);
    const refused = writes(first, refusedForGood);
    await expect(publishUntilKnown(refused.publish, Date.now() + 10_000)).rejects.toBe(first);
    expect(refused.calls()).toBe(2);
  });
});
