import type { Queryable, Statement } from '@folio/db';
import type { TraceHeaders } from '@folio/tracing';
import { settleUsage } from '@folio/metering';
import { CALLBACK_CHANNEL, scheduleCallbacks, scheduleRedeliveries } from '@folio/webhooks';
import { owingCallbacks } from './fold.ts';
import type { JobRow } from './job.ts';

/** Where the projector publishes state changes; the API's sync waiters and job cache listen here. */
export const JOB_CHANNEL = 'folio_job';

/**
 * What the live projection does beside the rows, in the same transaction, for the jobs a batch changed: the meter
 * settles the jobs that ended (counted once, the reservation given back), callbacks become owed for the ended jobs
 * that have a webhook_url (and once more for each redelivery their owner asked for), and whoever waits on a job
 * or on callbacks is told (NOTIFY, delivered at commit). A replay's fold does none of it: a count once told is not
 * renumbered and a callback is not sent twice; a swap does it for the events the replay applied ahead of the live
 * projection (`replay.ts`), and `folio parked retry` for the job it folds again.
 *
 * `traces`: the trace context each owed callback's delivery continues, by job (none when traces are not exported).
 * Returns the statements unsent, in the order they run (`readThenWrite` sends them with the transaction's other
 * writes): a redelivery's update runs after the schedule's insert, so it finds the row a job's end owes, and
 * notifications are delivered at commit, once the meter has counted.
 */
export function actOnChanges(
  tx: Queryable,
  changed: JobRow[],
  redeliveries: Array<{ job_id: string; event_id: string }> = [],
  traces: ReadonlyMap<string, TraceHeaders> = new Map(),
): Statement[] {
  const owing = owingCallbacks(changed).map((job) => ({ ...job, trace: traces.get(job.job_id) ?? null }));
  // A job becomes visible to its key once its JobQueued is projected; until then there is nothing to announce.
  const announce = changed.filter((j) => j.key_id !== null).map((j) => `${j.job_id}:${j.status}`);
  return [
    ...settleUsage(tx, changed),
    scheduleCallbacks(tx, owing),
    scheduleRedeliveries(tx, redeliveries),
    announce.length > 0 && tx`select pg_notify(${JOB_CHANNEL}, payload) from unnest(${announce}::text[]) as payload`,
    (owing.length > 0 || redeliveries.length > 0) && tx`select pg_notify(${CALLBACK_CHANNEL}, '')`,
  ];
}
