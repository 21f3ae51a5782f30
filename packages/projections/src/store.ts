import { readThenWrite, type Sql } from '@folio/db';
import type { TraceHeaders } from '@folio/tracing';
import { wellFormedValue } from '@folio/events';
import { actOnChanges } from './effects.ts';
import { changedJobs, endedJobs, foldEvents, type LoggedEvent } from './fold.ts';
import type { JobRow } from './job.ts';
import { insertDeliveries, insertHistory, normalise, saveCheckpoints, saveJobRows, type Checkpoint } from './rows.ts';

/**
 * Applies a batch of events — from any number of partitions, in log order within each — in one transaction together
 * with the checkpoint of every partition it covers, in two round trips (`readThenWrite`: the reads, then the writes). Events before a partition's checkpoint were applied already (a
 * redelivery after a crash) and are skipped, so applying a batch twice has the effect of applying it once. Every
 * table is written by one statement whatever the batch's size (`rows.ts`), and the jobs are read and locked by one.
 * Returns how many events took their place in the history; `onEnded` is told, once the transaction committed, which
 * jobs it brought to their final state; `traces` are the trace contexts owed callbacks continue, by job. Table names are unqualified (see `rows.ts`).
 */
export async function applyEvents(
  sql: Sql,
  logged: LoggedEvent[],
  ends: Checkpoint[],
  options: { onEnded?: (jobs: JobRow[]) => void; traces?: ReadonlyMap<string, TraceHeaders> } = {},
): Promise<number> {
  // Text the store cannot hold (NUL, lone surrogates) is made well-formed, the same way every time, so a rebuild
  // gives the same rows as the live projection.
  const events = logged.map((e) => ({ ...e, event: wellFormedValue(e.event) }));
  const partitions = [...new Map(ends.map((e) => [`${e.topic}/${e.partition}`, e])).values()].sort(
    (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
  // Lock the jobs in a fixed order so concurrent transactions never deadlock; create the missing ones first so two
  // transactions touching a new job serialise on its row instead of overwriting each other.
  const ids = [...new Set(events.map((e) => e.event.job_id))].sort();
  const eventIds = events.map((e) => e.event.event_id);
  let ended: JobRow[] = [];
  const applied = await withRetry(() =>
    readThenWrite(
      sql,
      // The checkpoints are locked first, in a fixed order: a member that lost these partitions in a rebalance and is
      // still applying them waits here, and then sees what the other applied. Then the jobs, created if missing.
      (tx) =>
        Promise.all([
          tx`
            insert into projection_checkpoints (topic, partition, next_offset)
            select *, 0 from unnest(${partitions.map((p) => p.topic)}::text[], ${partitions.map((p) => p.partition)}::int[])
            on conflict (topic, partition) do nothing`,
          tx<Checkpoint[]>`
            select topic, partition, next_offset from projection_checkpoints
            where (topic, partition) in (select * from unnest(${partitions.map((p) => p.topic)}::text[], ${partitions.map((p) => p.partition)}::int[]))
            order by topic, partition for update`,
          ids.length > 0 && tx`insert into jobs (job_id, status) select unnest(${ids}::uuid[]), 'queued' on conflict (job_id) do nothing`,
          ids.length > 0 ? tx<JobRow[]>`select * from jobs where job_id = any(${ids}::uuid[]) order by job_id for update` : [],
          eventIds.length > 0 ? tx<{ event_id: string }[]>`select event_id from job_history where event_id = any(${eventIds}::uuid[])` : [],
        ]),
      (tx, [, checkpointRows, , rows, seenRows]) => {
        const from = new Map(checkpointRows.map((c) => [`${c.topic}/${c.partition}`, Number(c.next_offset)]));
        const fresh = events.filter((e) => e.offset >= (from.get(`${e.topic}/${e.partition}`) ?? 0));
        const jobs = new Map(rows.map((r) => [r.job_id, normalise(r)]));
        const seen = new Set(seenRows.map((r) => r.event_id));
        const folded = foldEvents(fresh, (id) => jobs.get(id), (id) => seen.has(id));
        const moved = partitions.filter((p) => p.next_offset > (from.get(`${p.topic}/${p.partition}`) ?? 0));
        ended = endedJobs(folded);
        return {
          result: folded.history.length,
          statements: [
            folded.touched.size > 0 && saveJobRows(tx, [...folded.touched.values()]),
            folded.history.length > 0 && insertHistory(tx, folded.history),
            folded.deliveries.length > 0 && insertDeliveries(tx, folded.deliveries),
            moved.length > 0 && saveCheckpoints(tx, moved),
            ...actOnChanges(tx, changedJobs(folded), folded.redeliveries, options.traces),
          ],
        };
      },
    ),
  );
  if (ended.length > 0) options.onEnded?.(ended);
  return applied;
}

async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (i >= attempts || (code !== '40P01' && code !== '40001')) throw error;
      await new Promise((r) => setTimeout(r, 10 * i));
    }
  }
}
