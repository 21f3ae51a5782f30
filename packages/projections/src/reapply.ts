import type { Sql } from '@folio/db';
import { wellFormedValue, type JobEvent } from '@folio/events';
import { actOnChanges } from './effects.ts';
import { changedJobs, deliveryRow, historyRow, type LoggedEvent } from './fold.ts';
import { emptyJob, evolve, isFinal, type JobRow } from './job.ts';
import { insertDeliveries, insertHistory, normalise, saveJobRows } from './rows.ts';

export type Reapplied =
  /** The job was folded again with the event in its place. */
  | 'applied'
  /** The job had ended differently already: the event is in its history, not effective, and the end stands. */
  | 'recorded'
  /** The event had been applied before. */
  | 'seen';

/**
 * Re-applies a parked event once its fault is mended, as a replay of the log would apply it. Events after it in the log
 * were projected while it sat parked, so it cannot simply be folded last: the job is folded again from all its
 * projected events plus this one, in log order, and its row and the history's `effective` flags are rewritten — which
 * is what a rebuild gives; what the live projection does beside the rows for a change (`actOnChanges`: the meter,
 * callbacks owed, notifications) is done for this one. One exception keeps invariant 2 (docs/invariants.md): when the
 * job is final and the refold would end it differently (the parked event was itself terminal, overtaken by the
 * JobFailed its parking wrote), the event is recorded as not effective and the job keeps the end its users have seen.
 */
export async function reapplyEvent(sql: Sql, logged: LoggedEvent): Promise<Reapplied> {
  const event = wellFormedValue(logged.event);
  const id = event.job_id;
  return sql.begin(async (tx) => {
    await tx`insert into jobs (job_id, status) values (${id}, 'queued') on conflict (job_id) do nothing`;
    const [liveRow] = await tx<JobRow[]>`select * from jobs where job_id = ${id} for update`;
    // A success in the history lacks its result's content: the fold takes only its result from it, which is
    // replaced below by the row's.
    const rows = await tx<Array<{ event_id: string; topic: string; partition: number; offset: number; data: JobEvent; effective: boolean }>>`
      select event_id, topic, partition, "offset", data, effective from job_history where job_id = ${id}`;
    if (rows.some((r) => r.event_id === event.event_id)) return 'seen';
    const live = normalise(liveRow!);
    if (event.type === 'WebhookDeliveryAttempted') {
      await insertDeliveries(tx, [deliveryRow(event)]);
    }

    const all: LoggedEvent[] = [...rows.map((r) => ({ topic: r.topic, partition: r.partition, offset: Number(r.offset), event: r.data })), { ...logged, event }];
    const refolded = foldInLogOrder(id, all);
    const { effective } = refolded;
    // The history keeps a success without its result's content (`historyRow`): a job whose end comes from its history
    // keeps the result its row has. Only a job that was not final can end differently, and then by this event, read
    // whole from the log.
    const job = refolded.job.terminal_event_id === live.terminal_event_id ? { ...refolded.job, result: live.result } : refolded.job;

    if (isFinal(live.status) && job.terminal_event_id !== live.terminal_event_id) {
      await insertHistory(tx, [historyRow({ ...logged, event }, false)]);
      return 'recorded';
    }
    await saveJobRows(tx, [job]);
    await insertHistory(tx, [historyRow({ ...logged, event }, effective.get(event.event_id)!)]);
    for (const r of rows) {
      if (effective.get(r.event_id) !== r.effective) await tx`update job_history set effective = ${effective.get(r.event_id)!} where event_id = ${r.event_id}`;
    }
    const redeliveries = event.type === 'WebhookRedeliveryRequested' ? [{ job_id: id, event_id: event.event_id }] : [];
    await Promise.all(actOnChanges(tx, changedJobs({ touched: new Map([[id, job]]), before: new Map([[id, live]]) }), redeliveries));
    return 'applied';
  });
}

/**
 * Folds one job's events as a replay of the log does. A job's requests sit on a lane topic and the rest on the
 * lifecycle topic, one partition each (all keyed by job id); the fold commutes across the two (JobQueued only fills
 * in request fields), so requests first, then the lifecycle by offset, is the log's own order as far as the fold can
 * tell. Returns the job and whether each event (by id) took effect.
 */
export function foldInLogOrder(jobId: string, events: LoggedEvent[]): { job: JobRow; effective: Map<string, boolean> } {
  const lane = (e: LoggedEvent) => (e.event.type === 'JobQueued' ? 0 : 1);
  const ordered = [...events].sort((a, b) => lane(a) - lane(b) || a.offset - b.offset);
  let job = emptyJob(jobId);
  const effective = new Map<string, boolean>();
  for (const e of ordered) {
    const step = evolve(job, e.event);
    job = step.job;
    effective.set(e.event.event_id, step.effective);
  }
  return { job, effective };
}
