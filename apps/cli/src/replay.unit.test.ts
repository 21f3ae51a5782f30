import { describe, expect, it } from 'vitest';
import { formatReport, progressLine } from './replay.ts';

describe('the replay progress line', () => {
  it('shows the share, the rate and the time left at that rate', () => {
    expect(progressLine({ phase: 'replaying', done: 25_000, total: 100_000, seconds: 1 }, 10)).toBe(
      '[###.......] 25,000/100,000 events  25,000 events/s  ETA 3 s',
    );
    expect(progressLine({ phase: 'replaying', done: 1_000, total: 100_000, seconds: 0.1 }, 10)).toBe('[..........] 1,000/100,000 events  … events/s  ETA …');
    expect(progressLine({ phase: 'replaying', done: 10, total: 100_000, seconds: 1 }, 10)).toMatch(/ETA 166 min 39 s$/);
    expect(progressLine({ phase: 'replaying', done: 7, total: 7, seconds: 2 }, 4)).toBe('[####] 7/7 events  4 events/s  done');
    expect(progressLine({ phase: 'verifying', done: 0, total: 0, seconds: 3 })).toBe('verifying…');
  });
});

describe('the replay report', () => {
  const table = (name: string, differing = 0) => ({
    table: name,
    liveRows: 1200,
    replayRows: 1200,
    liveChecksum: '0123456789abcde',
    replayChecksum: differing ? 'edcba9876543210' : '0123456789abcde',
    onlyLive: 0,
    onlyReplay: 0,
    differing,
    examples: differing ? ['0190-aaaa'] : [],
  });

  it('prints the comparison as a table and names what it left out', () => {
    const text = formatReport({
      events: 3000,
      foldSeconds: 0.5,
      ends: [],
      liveBehind: 0,
      unapplied: [],
      swapped: false,
      verification: { tables: [table('jobs', 1), table('job_history')], excluded: { movedOn: 2, laterEvents: 5, expired: 0 }, equal: false },
    });
    expect(text).toContain('replayed 3,000 events in 0.5 s (6,000 events/s)');
    expect(text).toContain('table        live rows  replay rows    live checksum  replay checksum  only live  only replay  differing');
    expect(text).toContain('jobs             1,200        1,200  0123456789abcde  edcba9876543210          0            0          1');
    expect(text).toContain('not compared: 2 jobs the live projection changed after the end offsets (5 later events)');
    expect(text).toContain('jobs differs at 0190-aaaa');
    expect(text).toContain('DIFFERENT');
    expect(text).not.toContain('expired');
  });
});
