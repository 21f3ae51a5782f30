import { describe, expect, it } from 'vitest';
import { budgetOf, localAllowance, secondsToReset, windowStart } from './budgets.ts';

describe('rate-limit budgets', () => {
  it('gives polling 120 a minute free and 600 paid, the legacy endpoints 60, and scales them', () => {
    expect(budgetOf('poll', 'free')).toBe(120);
    expect(budgetOf('poll', 'paid')).toBe(600);
    expect(budgetOf('legacy', 'paid')).toBe(60);
    expect(budgetOf('convert', 'free', 100)).toBe(6000);
    expect(budgetOf('convert', 'free', 0.0001)).toBe(1);
  });

  it('aligns windows on the minute and counts whole seconds to the next one', () => {
    const t = Date.UTC(2026, 10, 23, 3, 0, 59, 500);
    expect(windowStart(t)).toBe(Date.UTC(2026, 10, 23, 3, 0, 0));
    expect(secondsToReset(t)).toBe(1);
    expect(secondsToReset(Date.UTC(2026, 10, 23, 3, 0, 0))).toBe(60);
  });

  it('lets a process admit a twentieth of a budget before it must consult the shared count', () => {
    expect(localAllowance(120)).toBe(6);
    expect(localAllowance(10)).toBe(1);
  });
});
