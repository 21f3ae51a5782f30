import { describe, expect, it } from 'vitest';
import type { Sql } from '@folio/db';
import { PublishTimeoutError } from '@folio/event-log';
import { outcomeUnknown, releaseUnlessQueued } from './unknown-outcome.ts';

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
