import { describe, expect, it } from 'vitest';
import { admits, periodOf } from './period.ts';

describe('periodOf', () => {
  it('is the calendar month in UTC, whatever the offset the moment was written with', () => {
    expect(periodOf('2026-11-30T23:59:59.999Z')).toBe('2026-11');
    expect(periodOf('2026-12-01T00:30:00+02:00')).toBe('2026-11');
    expect(periodOf('2026-12-01T00:00:00Z')).toBe('2026-12');
  });
});

describe('admits', () => {
  const free = { included: 100, limit: null };
  it('lets a free key reserve its 100th document and refuses the 101st, counting reservations as used', () => {
    expect(admits({ usedThisPeriod: 99, usedEver: 99, reserved: 0 }, free)).toBe('ok');
    expect(admits({ usedThisPeriod: 97, usedEver: 97, reserved: 3 }, free)).toBe('quota_exceeded');
    expect(admits({ usedThisPeriod: 100, usedEver: 500, reserved: 0 }, free)).toBe('quota_exceeded');
  });
  it('stops a key at its own limit over all months, before the monthly cap', () => {
    expect(admits({ usedThisPeriod: 0, usedEver: 4, reserved: 1 }, { included: 100, limit: 5 })).toBe('limit_exceeded');
    expect(admits({ usedThisPeriod: 0, usedEver: 3, reserved: 1 }, { included: null, limit: 5 })).toBe('ok');
  });
  it('never stops a key without caps', () => {
    expect(admits({ usedThisPeriod: 1e6, usedEver: 1e7, reserved: 50 }, { included: null, limit: null })).toBe('ok');
  });
});
