import type { JobError, JobEvent, JobResult, Lane, Output } from '@folio/events';

export type JobStatus = 'queued' | 'processing' | 'succeeded' | 'failed';

/** The jobs read model row, as the fold sees it. */
export interface JobRow {
  job_id: string;
  key_id: string | null;
  status: JobStatus;
  lane: Lane | null;
  output: Output | null;
  request_id: string | null;
  webhook_url: string | null;
  created_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  attempts: number;
  result: JobResult | null;
  error: JobError | null;
  terminal_event_id: string | null;
}

export function isFinal(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** A job before any of its events. */
export function emptyJob(jobId: string): JobRow {
  return {
    job_id: jobId,
    key_id: null,
    status: 'queued',
    lane: null,
    output: null,
    request_id: null,
    webhook_url: null,
    created_at: null,
    started_at: null,
    finished_at: null,
    expires_at: null,
    attempts: 0,
    result: null,
    error: null,
    terminal_event_id: null,
  };
}

/**
 * The projection of one event onto a job, as a pure function. It is order-tolerant across topics (the request arrives
 * on a lane topic, everything else on the lifecycle topic): JobQueued only fills in the request's fields, never the
 * state, so it commutes with the lifecycle. Within the lifecycle topic, log order decides: the first terminal event
 * wins and nothing after it changes the state (invariant 2, docs/invariants.md). `effective` says whether the event
 * changed the job; ineffective events are still kept in the history.
 */
export function evolve(job: JobRow, event: JobEvent): { job: JobRow; effective: boolean } {
  switch (event.type) {
    case 'JobQueued': {
      if (job.key_id !== null) return { job, effective: false };
      return {
        effective: true,
        job: {
          ...job,
          key_id: event.key_id,
          lane: event.lane,
          output: event.output,
          request_id: event.request_id,
          webhook_url: event.webhook_url,
          created_at: event.occurred_at,
          expires_at: event.expires_at,
        },
      };
    }
    case 'JobProcessing': {
      if (isFinal(job.status)) return { job, effective: false };
      return {
        effective: true,
        job: {
          ...job,
          status: 'processing',
          attempts: job.attempts + 1,
          started_at: job.started_at ?? event.occurred_at,
        },
      };
    }
    case 'JobSucceeded':
    case 'JobFailed': {
      if (isFinal(job.status)) return { job, effective: false };
      const succeeded = event.type === 'JobSucceeded';
      return {
        effective: true,
        job: {
          ...job,
          status: succeeded ? 'succeeded' : 'failed',
          finished_at: event.occurred_at,
          result: succeeded ? event.result : null,
          error: succeeded ? null : event.error,
          terminal_event_id: event.event_id,
        },
      };
    }
    case 'WebhookDeliveryAttempted':
    case 'WebhookRedeliveryRequested':
      // A callback attempt (or a request for one more) changes the deliveries, not the job: a job's end never
      // changes (invariant 2, docs/invariants.md). Both are kept in its history.
      return { job, effective: true };
  }
}
