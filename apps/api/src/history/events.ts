import type { Sql } from '@folio/db';
import type { JobError, WebhookDeliveryAttempted } from '@folio/events';
import { decodeCursor, isInstant, isInteger, isString, pageOf } from './pages.ts';

/**
 * A job's history as GET /v2/jobs/{id}/events tells it: every event of the job as the projection kept it in
 * `job_history` (effective or not), each with where it sits in the log, plus a `rerun` entry for each job started
 * as a rerun of this one (that job's JobQueued, which names this one in `rerun_of`). Nothing is read from anywhere
 * but the log's projection, so the history reads the same after a rebuild.
 */
/** What a callback attempt's entry tells of its WebhookDeliveryAttempted: everything, by the event's own names. */
const ATTEMPT_FIELDS = ['attempt', 'worker', 'url', 'status_code', 'error', 'duration_ms', 'outcome', 'next_attempt_at'] as const;

interface Common {
  event_id: string;
  event_type: string;
  occurred_at: string;
  /** false for an event that changed nothing: a late outcome after the job had ended, a duplicate. */
  effective: boolean;
  topic: string;
  partition: number;
  offset: number;
}

export type HistoryEntry = Common &
  (
    | { kind: 'queued'; lane: string; output: string; input: string; webhook_url: string | null; rerun_of: string | null }
    | { kind: 'processing'; attempt: number; worker: string }
    | { kind: 'succeeded'; attempt: number; worker: string; duration_ms: number }
    | { kind: 'failed'; attempt: number | null; worker: string; error: JobError }
    | ({ kind: 'webhook_attempt' } & Pick<WebhookDeliveryAttempted, (typeof ATTEMPT_FIELDS)[number]>)
    | { kind: 'webhook_redelivery_requested'; request_id: string }
    | { kind: 'rerun'; rerun_job_id: string }
  );

interface HistoryRow {
  event_id: string;
  job_id: string;
  type: string;
  occurred_at: Date;
  effective: boolean;
  topic: string;
  partition: number;
  offset: number;
  /** 0 for the job's own request, 1 for everything after it: a JobQueued stamped the same millisecond comes first. */
  rank: number;
  /** The event's own fields, without the bulky ones (the input, the result). */
  data: Record<string, any>;
  rerun: boolean;
}

/** The sort key of an entry, and so of a cursor: time, then the request first, then the position in the log. */
type EntryKey = [occurredAt: string, rank: number, topic: string, partition: number, offset: number];
const ENTRY_KEY = [isInstant, isInteger, isString, isInteger, isInteger] as const;

export async function jobHistoryPage(
  sql: Sql,
  job: { jobId: string; keyId: string },
  page: { limit: number; cursor?: string },
): Promise<{ items: HistoryEntry[]; nextCursor: string | null }> {
  const after = decodeCursor<EntryKey>(page.cursor, ENTRY_KEY as never);
  const rows = await sql<HistoryRow[]>`
    select * from (
      select event_id, job_id, type, occurred_at, effective, topic, partition, "offset",
             case when type = 'JobQueued' then 0 else 1 end as rank,
             (data - 'input' - 'options' - 'result') || jsonb_build_object('input_kind', data->'input'->'kind') as data,
             false as rerun
      from job_history where job_id = ${job.jobId}
      union all
      select event_id, job_id, type, occurred_at, effective, topic, partition, "offset", 1 as rank,
             jsonb_build_object('key_id', data->'key_id') as data, true as rerun
      from job_history
      where type = 'JobQueued' and data->>'rerun_of' = ${job.jobId} and data->>'key_id' = ${job.keyId}
    ) entries
    where ${after === null}::boolean
       or (occurred_at, rank, topic, partition, "offset") > (${after?.[0] ?? null}::timestamptz, ${after?.[1] ?? 0}, ${after?.[2] ?? ''}, ${after?.[3] ?? 0}, ${after?.[4] ?? 0})
    order by occurred_at, rank, topic, partition, "offset"
    limit ${page.limit + 1}`;
  const { items, nextCursor } = pageOf(rows, page.limit, (r) => [r.occurred_at.toISOString(), r.rank, r.topic, r.partition, r.offset]);
  return { items: items.map(entryOf), nextCursor };
}

function entryOf(row: HistoryRow): HistoryEntry {
  const common: Common = {
    event_id: row.event_id,
    event_type: row.type,
    occurred_at: row.occurred_at.toISOString(),
    effective: row.effective,
    topic: row.topic,
    partition: row.partition,
    offset: row.offset,
  };
  const d = row.data;
  if (row.rerun) return { ...common, kind: 'rerun', rerun_job_id: row.job_id };
  switch (row.type) {
    case 'JobQueued':
      return { ...common, kind: 'queued', lane: d.lane, output: d.output, input: d.input_kind, webhook_url: d.webhook_url ?? null, rerun_of: d.rerun_of ?? null };
    case 'JobProcessing':
      return { ...common, kind: 'processing', attempt: d.attempt, worker: d.worker };
    case 'JobSucceeded':
      return { ...common, kind: 'succeeded', attempt: d.attempt, worker: d.worker, duration_ms: d.duration_ms };
    case 'JobFailed':
      return { ...common, kind: 'failed', attempt: d.attempt ?? null, worker: d.worker, error: d.error };
    case 'WebhookDeliveryAttempted':
      return { ...common, kind: 'webhook_attempt', ...(Object.fromEntries(ATTEMPT_FIELDS.map((f) => [f, d[f] ?? null])) as Pick<WebhookDeliveryAttempted, (typeof ATTEMPT_FIELDS)[number]>) };
    case 'WebhookRedeliveryRequested':
      return { ...common, kind: 'webhook_redelivery_requested', request_id: d.request_id };
    default:
      throw new Error(`job_history holds an event type this API does not know: ${row.type}`);
  }
}
