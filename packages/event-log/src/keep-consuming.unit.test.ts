import { describe, expect, it } from 'vitest';
import { restartDelayMs } from './keep-consuming.ts';

describe('restartDelayMs', () => {
  it('waits 1 s, doubling, and never more than 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
