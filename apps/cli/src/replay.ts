import type { ReplayProgress, ReplayReport } from '@folio/projections';

/**
 * The progress line of a replay: a bar, events done of the total, the rate since the fold began and the time left
 * at that rate. Written over itself on stderr (stdout keeps the report).
 */
export function progressLine(progress: ReplayProgress, width = 30): string {
  if (progress.phase !== 'replaying') return `${progress.phase}…`;
  const { done, total, seconds } = progress;
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  // The first moments measure the group joining, not the fold: no rate until half a second has passed.
  const rate = seconds >= 0.5 ? done / seconds : 0;
  const eta = done >= total ? 'done' : rate > 0 ? `ETA ${duration((total - done) / rate)}` : 'ETA …';
  const speed = rate > 0 ? `${count(Math.round(rate))} events/s` : '… events/s';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count(done)}/${count(total)} events  ${speed}  ${eta}`;
}

function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The report a replay prints: what was folded, the comparison as a table, what was left out and why, the outcome. */
export function formatReport(report: ReplayReport): string {
  const { verification: v } = report;
  const rate = report.foldSeconds > 0 ? Math.round(report.events / report.foldSeconds) : report.events;
  const header = ['table', 'live rows', 'replay rows', 'live checksum', 'replay checksum', 'only live', 'only replay', 'differing'];
  const rows = v.tables.map((t) => [
    t.table,
    count(t.liveRows),
    count(t.replayRows),
    t.liveChecksum,
    t.replayChecksum,
    String(t.onlyLive),
    String(t.onlyReplay),
    String(t.differing),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const out = [
    `replayed ${count(report.events)} events in ${report.foldSeconds.toFixed(1)} s (${count(rate)} events/s), up to the end offsets of ${report.ends.length} partitions taken at the start`,
    '',
    line(header),
    ...rows.map(line),
    '',
  ];
  const { movedOn, laterEvents, expired } = v.excluded;
  if (movedOn > 0) out.push(`not compared: ${movedOn} jobs the live projection changed after the end offsets (${laterEvents} later events)`);
  if (expired > 0) out.push(`not compared: ${expired} expired jobs (the retention sweep deletes their live rows; a replay makes them again)`);
  if (report.liveBehind > 0) out.push(`the live projection had not reached the end offsets: ${report.liveBehind} events behind, shown as rows only the replay has`);
  for (const u of report.unapplied.slice(0, 10)) out.push(`not applied: ${u.topic}/${u.partition}@${u.offset}: ${u.error}`);
  if (report.unapplied.length > 10) out.push(`not applied: ${report.unapplied.length - 10} more`);
  for (const t of v.tables) if (t.examples.length > 0) out.push(`${t.table} differs at ${t.examples.join(', ')}${t.onlyLive + t.onlyReplay + t.differing > t.examples.length ? ', …' : ''}`);
  out.push(v.equal ? 'verified: the replay equals the live read models' : 'DIFFERENT: the replay does not equal the live read models');
  out.push(report.swapped ? 'swapped: the replayed tables are live; the replaced ones are in schema folio_retired' : 'not swapped: the replayed tables are in schema folio_replay (folio replay --swap to put them in place)');
  return `${out.join('\n')}\n`;
}
