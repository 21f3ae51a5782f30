import { describe, expect, it } from 'vitest';
import { afterAttempt, hostRoom, isDelivered } from './plan.ts';
import { receiverHost } from './schedule.ts';

const delays = [2000, 10_000, 60_000];
const now = new Date('2026-11-23T10:00:00.000Z');
const answered = (statusCode: number) => ({ statusCode, error: null, durationMs: 5 });
const noAnswer = { statusCode: null, error: 'ECONNREFUSED', durationMs: 1 };

describe('afterAttempt', () => {
  it('ends on any 2xx', () => {
    for (const status of [200, 201, 204, 299]) expect(afterAttempt(1, answered(status), delays, now)).toEqual({ outcome: 'delivered', nextAttemptAt: null });
  });

  it('retries anything else after the configured delays: 2, 10, 60 s after attempts 1, 2, 3', () => {
    for (const result of [answered(500), answered(302), answered(404), answered(199), noAnswer]) {
      expect(afterAttempt(1, result, delays, now)).toEqual({ outcome: 'retrying', nextAttemptAt: new Date(now.getTime() + 2000) });
    }
    expect(afterAttempt(2, noAnswer, delays, now).nextAttemptAt).toEqual(new Date(now.getTime() + 10_000));
    expect(afterAttempt(3, noAnswer, delays, now).nextAttemptAt).toEqual(new Date(now.getTime() + 60_000));
  });

  it('gives up after 1 + 3 attempts', () => {
    expect(afterAttempt(4, answered(503), delays, now)).toEqual({ outcome: 'gave_up', nextAttemptAt: null });
    expect(afterAttempt(1, answered(503), [], now)).toEqual({ outcome: 'gave_up', nextAttemptAt: null });
  });

  it('a redirect is not a delivery', () => {
    expect(isDelivered(answered(301))).toBe(false);
    expect(isDelivered(answered(204))).toBe(true);
  });
});

describe('receiverHost', () => {
  it('names host and port, with the scheme default', () => {
    expect(receiverHost('https://hooks.example.com/a?b=1')).toBe('hooks.example.com:443');
    expect(receiverHost('https://127.0.0.1:8443/x')).toBe('127.0.0.1:8443');
    expect(receiverHost('https://[::1]/x')).toBe('[::1]:443');
    expect(receiverHost('not a url')).toBe('');
  });
});

describe('hostRoom', () => {
  it('gives a host its share of the idle slots', () => {
    expect(hostRoom({ hostInFlight: 0, free: 64, share: 8 })).toBe(56);
    expect(hostRoom({ hostInFlight: 0, free: 5, share: 8 })).toBe(5);
    expect(hostRoom({ hostInFlight: 6, free: 4, share: 8 })).toBe(2);
  });

  it('lets a host borrow beyond its share only while that leaves a share of slots free for the others', () => {
    // A lone slow receiver fills 56 of 64 slots; the last 8 stay free.
    expect(hostRoom({ hostInFlight: 40, free: 24, share: 8 })).toBe(16);
    expect(hostRoom({ hostInFlight: 56, free: 8, share: 8 })).toBe(0);
    // Any other receiver can still start up to its share in those slots.
    expect(hostRoom({ hostInFlight: 0, free: 8, share: 8 })).toBe(8);
    expect(hostRoom({ hostInFlight: 9, free: 0, share: 8 })).toBe(0);
  });
});
