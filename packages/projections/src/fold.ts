import type { LoggedEvent } from '@folio/event-log';
import type { JobEvent, JobSucceeded, WebhookDeliveryAttempted } from '@folio/events';
import { emptyJob, evolve, isFinal, type JobRow } from './job.ts';

export type { LoggedEvent };

/**
 * The row `job_history` keeps of an event: the event (`data`) and where it was read. A success is kept without its
 * result's content: the job's row holds it (`jobs.result`, what GET /v2/jobs/{id} reads), the log holds the event
 * whole, and no reader of the history shows it; a converted document would otherwise be written twice a job.
 */
export interface HistoryRow {
  event_id: string;
  job_id: string;
  type: string;
  version: number;
  occurred_at: string;
  attempt: number | null;
  worker: string | null;
  effective: boolean;
  topic: string;
  partition: number;
  offset: number;
  data: HistoryData;
}

/** An event as the history keeps it (`historyRow`). */
export type HistoryData = Exclude<JobEvent, JobSucceeded> | (Omit<JobSucceeded, 'result'> & { result: Omit<JobSucceeded['result'], 'content'> });

/** The `delivery_attempts` row of a callback attempt. */
export type DeliveryRow = Pick<WebhookDeliveryAttempted, 'event_id' | 'job_id' | 'attempt' | 'url' | 'status_code' | 'error' | 'duration_ms' | 'outcome' | 'next_attempt_at' | 'occurred_at'>;

/** What a batch of events does to the read models, folded in memory before anything is written. */
export interface FoldedBatch {
  /** Every job an event of the batch reached, as it stands after the batch. */
  touched: Map<string, JobRow>;
  /** Each job as it stood before the batch (only for jobs in `touched`). */
  before: Map<string, JobRow>;
  history: HistoryRow[];
  deliveries: DeliveryRow[];
  /** Ids of the events that took their place in the history (not seen before). */
  fresh: Set<string>;
  /** Callbacks the key's owner asked for again, in log order. */
  redeliveries: Array<{ job_id: string; event_id: string }>;
}

/**
 * Folds a batch of events (in log order within each partition) onto the jobs as they stand: `known` gives a job's
 * row when it exists, `seen` says whether an event id is in the history already. An event written twice (a writer
 * retrying a send that had in fact succeeded) carries the same event id and takes effect once. Pure: the live
 * projection, the replay and their tests share it.
 */
export function foldEvents(events: LoggedEvent[], known: (jobId: string) => JobRow | undefined, seen: (eventId: string) => boolean): FoldedBatch {
  const folded: FoldedBatch = { touched: new Map(), before: new Map(), history: [], deliveries: [], fresh: new Set(), redeliveries: [] };
  for (const logged of events) {
    const { event } = logged;
    if (folded.fresh.has(event.event_id) || seen(event.event_id)) continue;
    folded.fresh.add(event.event_id);
    let job = folded.touched.get(event.job_id);
    if (!job) {
      job = known(event.job_id) ?? emptyJob(event.job_id);
      folded.before.set(event.job_id, job);
    }
    const next = evolve(job, event);
    folded.touched.set(event.job_id, next.job);
    folded.history.push(historyRow(logged, next.effective));
    if (event.type === 'WebhookDeliveryAttempted') folded.deliveries.push(deliveryRow(event));
    if (event.type === 'WebhookRedeliveryRequested') folded.redeliveries.push({ job_id: event.job_id, event_id: event.event_id });
  }
  return folded;
}

/**
 * The jobs whose change the live projection acts on beside the rows: each job whose state the batch changed, or whose
 * request (key, webhook_url) it brought — the meter settles them, callbacks become owed, waiting requests are told.
 */
export function changedJobs({ touched, before }: Pick<FoldedBatch, 'touched' | 'before'>): JobRow[] {
  const changed: JobRow[] = [];
  for (const [id, job] of touched) {
    const was = before.get(id)!;
    if (job.status !== was.status || job.key_id !== was.key_id) changed.push(job);
  }
  return changed;
}

/** The jobs the batch brought to their final state. */
export function endedJobs({ touched, before }: Pick<FoldedBatch, 'touched' | 'before'>): JobRow[] {
  return [...touched.values()].filter((job) => isFinal(job.status) && !isFinal(before.get(job.job_id)!.status));
}

/** The jobs among these that owe their key's owner a callback: final, with a known key and a webhook_url. */
export function owingCallbacks(jobs: JobRow[]): JobRow[] {
  return jobs.filter((j) => isFinal(j.status) && j.key_id !== null && j.webhook_url !== null);
}

export function historyRow({ topic, partition, offset, event }: LoggedEvent, effective: boolean): HistoryRow {
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
    data: historyData(event),
  };
}

function historyData(event: JobEvent): HistoryData {
  if (event.type !== 'JobSucceeded') return event;
  const { content: _kept, ...result } = event.result;
  return { ...event, result };
}

export function deliveryRow(event: WebhookDeliveryAttempted): DeliveryRow {
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
