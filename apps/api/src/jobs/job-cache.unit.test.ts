import { describe, expect, it } from 'vitest';
import type { JobBody } from '@folio/job-view';
import { JobCache, type ChangeFeed } from './job-cache.ts';

const JOB = '018f0000-0000-7000-8000-000000000001';
const OWNER = 'key-a';

class Feed implements ChangeFeed {
  listening = true;
  private listener: (jobId: string | null) => void = () => {};
  onChange(listener: (jobId: string | null) => void): void {
    this.listener = listener;
  }
  announce(jobId: string | null): void {
    this.listener(jobId);
  }
}

function setup() {
  let t = Date.parse('2026-11-23T10:00:00Z');
  const feed = new Feed();
  const cache = new JobCache(feed, () => t);
  return { feed, cache, advance: (ms: number) => (t += ms) };
}

const queued: JobBody = { status: 'queued', job_id: JOB, created_at: '2026-11-23T10:00:00.000Z' };
const succeeded = (linkExpires?: string): JobBody => ({
  status: 'succeeded',
  job_id: JOB,
  created_at: '2026-11-23T10:00:00.000Z',
  finished_at: '2026-11-23T10:00:01.000Z',
  result: { status: 'success', ...(linkExpires ? { file_url: 'http://x/f', expires_at: linkExpires } : { content: 'hi' }), usage: { used_this_period: 1, included: 100, plan: 'free' } },
});
const READABLE = '2026-11-25T10:00:00Z';

describe('job cache', () => {
  it('serves a reading only to the key and plan it was made for', () => {
    const { cache } = setup();
    cache.keep(cache.begin(JOB), OWNER, 'free', succeeded(), READABLE);
    expect(cache.get(JOB, OWNER, 'free')?.json).toBe(JSON.stringify(succeeded()));
    expect(cache.get(JOB, 'key-b', 'free')).toBeNull();
    expect(cache.get(JOB, OWNER, 'paid')).toBeNull();
  });

  it('keeps a final job until it stops being readable or its file link expires', () => {
    const { cache, advance } = setup();
    cache.keep(cache.begin(JOB), OWNER, 'free', succeeded('2026-11-23T10:00:30Z'), READABLE);
    advance(29_000);
    expect(cache.get(JOB, OWNER, 'free')).not.toBeNull();
    advance(1_000);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();

    cache.keep(cache.begin(JOB), OWNER, 'free', succeeded(), '2026-11-23T10:01:00Z');
    advance(29_999);
    expect(cache.get(JOB, OWNER, 'free')).not.toBeNull();
    advance(1);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();
  });

  it('forgets an unfinished job when it changes, and within a second regardless', () => {
    const { cache, feed, advance } = setup();
    const reading = cache.keep(cache.begin(JOB), OWNER, 'free', queued, READABLE);
    expect(reading.retryAfter).toBe('2');
    expect(cache.get(JOB, OWNER, 'free')).toEqual(expect.objectContaining({ retryAfter: '2' }));
    feed.announce(JOB);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();

    cache.keep(cache.begin(JOB), OWNER, 'free', queued, READABLE);
    advance(1000);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();
  });

  it('does not keep a reading that a change overlapped, nor one made while notifications may be missed', () => {
    const { cache, feed } = setup();
    const ticket = cache.begin(JOB);
    feed.announce(JOB); // the job changed while it was being read: the reading may be the old state
    cache.keep(ticket, OWNER, 'free', queued, READABLE);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();

    const beforeReconnect = cache.begin(JOB);
    feed.announce(null);
    cache.keep(beforeReconnect, OWNER, 'free', queued, READABLE);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();

    feed.listening = false;
    cache.keep(cache.begin(JOB), OWNER, 'free', queued, READABLE);
    expect(cache.get(JOB, OWNER, 'free')).toBeNull();
    // A final job never changes: it is kept whatever the feed is doing.
    cache.keep(cache.begin(JOB), OWNER, 'free', succeeded(), READABLE);
    expect(cache.get(JOB, OWNER, 'free')).not.toBeNull();
  });

  it('never replaces a final reading with an unfinished one read earlier', () => {
    const { cache } = setup();
    const slow = cache.begin(JOB); // began before the job finished; its answer arrives last
    cache.keep(cache.begin(JOB), OWNER, 'free', succeeded(), READABLE);
    cache.keep(slow, OWNER, 'free', queued, READABLE);
    expect(JSON.parse(cache.get(JOB, OWNER, 'free')!.json).status).toBe('succeeded');
  });
});
