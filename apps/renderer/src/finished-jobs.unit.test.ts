import { describe, expect, it } from 'vitest';
import { FinishedJobs } from './finished-jobs.ts';

describe('the jobs a renderer finished itself', () => {
  it('remembers the most recent ones, up to its capacity', () => {
    const finished = new FinishedJobs(2);
    finished.add('a');
    finished.add('b');
    finished.add('a'); // finished again: the most recent now
    finished.add('c');
    expect(['a', 'b', 'c'].filter((id) => finished.has(id))).toEqual(['a', 'c']);
  });
});
