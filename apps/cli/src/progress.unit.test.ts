import { describe, expect, it } from 'vitest';
import type { Job } from '@folio/sdk';
import { jobProgressLine, showProgress } from './progress.ts';

const job = (status: Job['status']): Job => ({ status, job_id: '0190e0a0-0000-7000-8000-000000000000', created_at: '2026-01-01T00:00:00Z' });

/** A stream that records what is written to it. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WriteStream };
}

describe('progress', () => {
  it('says the job, its state and the time waited; a spinner only while it runs', () => {
    expect(jobProgressLine(job('processing'), 1234)).toBe('job 0190e0a0-0000-7000-8000-000000000000: processing · 1.2 s');
    expect(jobProgressLine(job('queued'), 0, 1)).toMatch(/^⠙ job .*: queued · 0\.0 s$/);
    expect(jobProgressLine(job('succeeded'), 2500, 3)).toBe('job 0190e0a0-0000-7000-8000-000000000000: succeeded · 2.5 s');
  });

  it('writes a line per change of state when stderr is not a terminal', () => {
    let now = 1000;
    const { written, stream: out } = stream(false);
    const progress = showProgress(out, () => now);
    for (const status of ['queued', 'queued', 'processing', 'processing', 'succeeded'] as const) {
      progress.update(job(status));
      now += 500;
    }
    progress.done();
    expect(written.map((l) => l.replace(/^job \S+: /, ''))).toEqual(['queued · 0.0 s\n', 'processing · 1.0 s\n', 'succeeded · 2.0 s\n']);
  });

  it('redraws one line on a terminal and ends it once', () => {
    const { written, stream: out } = stream(true);
    const progress = showProgress(out, () => 0);
    progress.update(job('processing'));
    progress.update(job('succeeded'));
    progress.done();
    expect(written.every((w) => w.startsWith('\r\x1b[2K') || w === '\n')).toBe(true);
    expect(written.at(-1)).toBe('\n');
    expect(written.filter((w) => w === '\n')).toHaveLength(1);
  });
});
