import type postgres from 'postgres';
import type { Sql } from '@folio/db';
import { wellFormedValue, type JobEvent, type WebhookDeliveryAttempted } from '@folio/events';
import { settleUsage } from '@folio/metering';
import { emptyJob, evolve, type JobRow } from './job.ts';

/** One event with where it sits in the log. */
export interface LoggedEvent {
  topic: string;
  partition: number;
  offset: number;
  event: JobEvent;
}

/** Where the projector publishes state changes; the API's sync waiters listen here. */
export const JOB_CHANNEL = 'folio_job';

const JOB_COLUMNS = [
  'job_id',
  'key_id',
  'status',
  'lane',
  'output',
  'request_id',
  'webhook_url',
  'created_at',
  'started_at',
  'finished_at',
  'expires_at',
  'attempts',
  'result',
  'error',
  'terminal_event_id',
] as const;

/**
 * Applies the events of one partition, in log order, in one transaction together with the partition's checkpoint.
 * Events before the checkpoint were applied already (a redelivery after a crash) and are skipped, so applying a
 * batch twice has the effect of applying it once. Returns how many events took their place in the history.
 * Table names are unqualified: the replay's writer (`replay-writer.ts`) writes the same rows into its own schema.
 */
export async function applyBatch(
  sql: Sql,
  topic: string,
  partition: number,
  logged: LoggedEvent[],
  nextOffset: number,
): Promise<number> {
  if (logged.length === 0) return withRetry(() => sql.begin((tx) => saveCheckpoint(tx, topic, partition, nextOffset).then(() => 0)));
  // Text the store cannot hold (NUL, lone surrogates) is made well-formed, the same way every time, so a rebuild
  // gives the same rows as the live projection.
  const events = logged.map((e) => ({ ...e, event: wellFormedValue(e.event) }));
  // Lock the jobs in a fixed order so concurrent partitions never deadlock; create the missing ones first so two
  // partitions touching a new job serialise on its row instead of overwriting each other.
  const ids = [...new Set(events.map((e) => e.event.job_id))].sort();
  const eventIds = events.map((e) => e.event.event_id);
  return withRetry(() =>
    sql.begin(async (tx) => {
      // One round trip: the statements are pipelined on the transaction's connection and run in this order.
      const [[checkpoint], , rows, seenRows] = await Promise.all([
        tx<{ next_offset: number }[]>`
          select next_offset from projection_checkpoints where topic = ${topic} and partition = ${partition} for update`,
        tx`insert into jobs ${tx(ids.map((id) => ({ job_id: id, status: 'queued' })))} on conflict (job_id) do nothing`,
        tx<JobRow[]>`select * from jobs where job_id in ${tx(ids)} order by job_id for update`,
        tx<{ event_id: string }[]>`select event_id from job_history where event_id in ${tx(eventIds)}`,
      ]);
      const from = checkpoint?.next_offset ?? 0;
      if (nextOffset <= from) return 0;
      const fresh = events.filter((e) => e.offset >= from);
      const jobs = new Map(rows.map((r) => [r.job_id, normalise(r)]));
      // An event written twice (a writer retrying a send that had in fact succeeded) carries the same event id:
      // it takes effect once.
      const seen = new Set(seenRows.map((r) => r.event_id));

      const history = [];
      const deliveries = [];
      const changed = new Set<string>();
      const touched = new Set<string>();
      for (const { topic: t, partition: p, offset, event } of fresh) {
        if (seen.has(event.event_id)) continue;
        seen.add(event.event_id);
        const before = jobs.get(event.job_id) ?? emptyJob(event.job_id);
        const { job, effective } = evolve(before, event);
        jobs.set(event.job_id, job);
        touched.add(event.job_id);
        if (effective && (job.status !== before.status || event.type === 'JobQueued')) changed.add(event.job_id);
        history.push(historyRow(tx, { topic: t, partition: p, offset, event }, effective));
        if (event.type === 'WebhookDeliveryAttempted') deliveries.push(deliveryRow(event));
      }

      const updated = [...touched].map((id) => jobs.get(id)!);
      // A job becomes visible to its key once its JobQueued is projected; until then there is nothing to announce.
      const announce = [...changed].map((id) => jobs.get(id)!).filter((j) => j.key_id !== null).map((j) => `${j.job_id}:${j.status}`);
      await Promise.all([
        updated.length > 0 && saveJobs(tx, updated),
        history.length > 0 && tx`insert into job_history ${tx(history)}`,
        deliveries.length > 0 && tx`insert into delivery_attempts ${tx(deliveries)} on conflict (event_id) do nothing`,
        saveCheckpoint(tx, topic, partition, nextOffset),
        // The meter settles with the rows, before the notification can be acted on (a sync answer reports usage).
        settleUsage(tx, [...changed].map((id) => jobs.get(id)!)),
        announce.length > 0 && tx`select pg_notify(${JOB_CHANNEL}, payload) from unnest(${announce}::text[]) as payload`,
      ]);
      return history.length;
    }),
  );
}

/** The `on conflict (job_id) do update` of a job row: every column from the new row. */
export const UPDATE_JOB = JOB_COLUMNS.filter((c) => c !== 'job_id').map((c) => `${c} = excluded.${c}`).join(', ');

/** The row `job_history` keeps of an event. */
export function historyRow(tx: postgres.TransactionSql, { topic, partition, offset, event }: LoggedEvent, effective: boolean) {
  return {
    event_id: event.event_id,
    job_id: event.job_id,
    type: event.type,
    version: event.version,
    occurred_at: event.occurred_at,
    attempt: 'attempt' in event ? event.attempt : null,
    worker: 'worker' in event ? event.worker : null,
    effective,
    topic,
    partition,
    offset,
    data: tx.json(event as never),
  };
}

/** The `delivery_attempts` row of a callback attempt. */
export function deliveryRow(event: WebhookDeliveryAttempted) {
  return {
    event_id: event.event_id,
    job_id: event.job_id,
    attempt: event.attempt,
    url: event.url,
    status_code: event.status_code,
    error: event.error,
    duration_ms: event.duration_ms,
    outcome: event.outcome,
    next_attempt_at: event.next_attempt_at,
    occurred_at: event.occurred_at,
  };
}

/** The `jobs` row of a folded job, its JSON columns marked as such. */
function jobRow(tx: postgres.TransactionSql, job: JobRow) {
  return {
    ...job,
    result: job.result === null ? null : tx.json(job.result as never),
    error: job.error === null ? null : tx.json(job.error as never),
  };
}

/** Writes folded jobs, replacing their rows. */
export async function saveJobs(tx: postgres.TransactionSql, jobs: JobRow[]): Promise<void> {
  await tx`insert into jobs ${tx(jobs.map((j) => jobRow(tx, j)), ...JOB_COLUMNS)} on conflict (job_id) do update set ${tx.unsafe(UPDATE_JOB)}`;
}

async function saveCheckpoint(tx: postgres.TransactionSql, topic: string, partition: number, nextOffset: number): Promise<void> {
  await tx`
    insert into projection_checkpoints (topic, partition, next_offset) values (${topic}, ${partition}, ${nextOffset})
    on conflict (topic, partition) do update set next_offset = greatest(projection_checkpoints.next_offset, excluded.next_offset)`;
}

/** Rows come back with Date objects for timestamps; the fold works on ISO strings, as events carry them. */
export function normalise(row: JobRow): JobRow {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return {
    ...row,
    attempts: Number(row.attempts),
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    expires_at: iso(row.expires_at),
  };
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
