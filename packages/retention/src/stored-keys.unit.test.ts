import { describe, expect, it } from 'vitest';
import { storedKeysOf } from './stored-keys.ts';

describe('storedKeysOf', () => {
  it('names every place a job may have stored something, and the keys its result records', () => {
    const keys = storedKeysOf('j1', { file: { key: 'files/j1.pdf' }, content_ref: { key: 'results/j1/other' } });
    expect(keys).toEqual(expect.arrayContaining(['inputs/j1', 'results/j1/content', 'files/j1.pdf', 'files/j1.docx', 'files/j1.html', 'files/j1.txt', 'results/j1/other']));
    expect(new Set(keys).size).toBe(keys.length);
    expect(storedKeysOf('j2', null)).toHaveLength(6);
  });
});
