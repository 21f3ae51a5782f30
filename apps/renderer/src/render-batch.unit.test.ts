import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, jobQueued, type JobInput } from '@folio/events';
import { CHUNK_JOBS, chunksOf, onePerJob, type Chunk } from './render-batch.ts';
import type { Run } from './render-job.ts';

const run = (n: number, input: Partial<JobInput> = {}): Run => ({
  attempt: 1,
  counted: 1,
  job: jobQueued({
    job_id: `0190f0f0-0000-7000-8000-${String(n).padStart(12, '0')}`,
    request_id: `r${n}`,
    key_id: 'k',
    lane: 'async',
    output: 'text',
    input: { kind: 'markdown', text: '# hi', ref: null, ...input },
    options: DEFAULT_OPTIONS,
    webhook_url: null,
    expires_at: new Date().toISOString(),
  }),
});
const sizes = (chunks: Chunk[]) => chunks.map((c) => c.runs.length);

describe('chunks of a batch for the conversion workers', () => {
  it('spreads quick jobs over the slots before any chunk grows, and never past CHUNK_JOBS', () => {
    expect(sizes(chunksOf([run(1), run(2), run(3)], 'async', 4))).toEqual([1, 1, 1]);
    expect(sizes(chunksOf(Array.from({ length: 10 }, (_, i) => run(i)), 'async', 4))).toEqual([3, 3, 3, 1]);
    const many = chunksOf(Array.from({ length: 100 }, (_, i) => run(i)), 'async', 4);
    expect(Math.max(...sizes(many))).toBe(CHUNK_JOBS);
    expect(many.flatMap((c) => c.runs).map((r) => r.job.request_id)).toEqual(Array.from({ length: 100 }, (_, i) => `r${i}`));
  });

  it('runs pages to fetch, claim-checked inputs and every sync job alone', () => {
    const page = run(1, { kind: 'url', text: 'https://example.com/a' });
    const large = run(2, { text: null, ref: { key: 'inputs/x', size: 900_000, content_type: 'text/markdown' } });
    expect(sizes(chunksOf([page, large, run(3), run(4)], 'async', 1))).toEqual([1, 1, 2]);
    expect(sizes(chunksOf([run(1), run(2), run(3)], 'sync', 1))).toEqual([1, 1, 1]);
  });

  it('converts a quick sync job in the renderer\'s own thread, and nothing else', () => {
    const docx = run(4);
    docx.job.output = 'docx';
    const page = run(5, { kind: 'url', text: 'https://example.com/a' });
    expect(chunksOf([run(1), docx, page], 'sync', 4).map((c) => c.here)).toEqual([true, false, false]);
    // html and pdf show only the images whose bytes arrived: the workers fetch them.
    const shown = (output: 'html' | 'pdf' | 'text', text: string) => {
      const r = run(6, { kind: output === 'text' ? 'markdown' : 'html', text });
      r.job.output = output;
      return r;
    };
    expect(chunksOf([shown('html', '<p><IMG src=a.png></p>'), shown('pdf', 'x ![a](b.png)'), shown('pdf', '<p>no picture</p>'), shown('text', '![a](b.png)')], 'sync', 4).map((c) => c.here)).toEqual([false, false, true, true]);
    expect(chunksOf([run(1), run(2)], 'async', 4).every((c) => !c.here)).toBe(true);
  });
});

describe('a job queued twice in one batch', () => {
  it('keeps the first copy of each job, in order', () => {
    const [a, b, c] = [run(1).job, run(2).job, run(3).job];
    // The API's second write of a JobQueued whose first write had an unknown outcome: the same event, again.
    expect(onePerJob([a, b, a, c, b]).map((j) => j.request_id)).toEqual(['r1', 'r2', 'r3']);
    expect(onePerJob([])).toEqual([]);
  });
});
