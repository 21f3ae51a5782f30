import { jobError } from './errors.ts';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import type {
  JobError,
  JobFailed,
  JobProcessing,
  JobQueued,
  JobResult,
  JobSucceeded,
  WebhookDeliveryAttempted,
  WebhookRedeliveryRequested,
} from './types.ts';

/** Job ids are UUIDv7: time-ordered, so their age is readable and index inserts stay local. */
export function newJobId(): string {
  return uuidv7();
}

/** Whether a value has the shape of a job id: any uuid, as the jobs table's column takes it. */
export function isJobId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** The creation time written inside a UUIDv7, or null for any other kind of uuid. */
export function jobIdTime(jobId: string): Date | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(jobId)) return null;
  return new Date(parseInt(jobId.slice(0, 8) + jobId.slice(9, 13), 16));
}

const base = (jobId: string, now: Date) => ({
  event_id: uuidv4(),
  job_id: jobId,
  occurred_at: now.toISOString(),
});

export function jobQueued(
  fields: Omit<JobQueued, 'type' | 'version' | 'event_id' | 'occurred_at' | 'rerun_of'> & { rerun_of?: string | null },
  now = new Date(),
): JobQueued {
  return { type: 'JobQueued', version: 3, ...base(fields.job_id, now), ...fields, rerun_of: fields.rerun_of ?? null };
}

export function jobProcessing(jobId: string, attempt: number, worker: string, now = new Date()): JobProcessing {
  return { type: 'JobProcessing', version: 1, ...base(jobId, now), attempt, worker };
}

export function jobSucceeded(
  jobId: string,
  attempt: number,
  worker: string,
  result: JobResult,
  durationMs: number,
  now = new Date(),
): JobSucceeded {
  return {
    type: 'JobSucceeded',
    version: 1,
    ...base(jobId, now),
    attempt,
    worker,
    duration_ms: Math.round(durationMs),
    result,
  };
}

/** The error of a synchronous job that did not finish within `ms`, whoever records it (the API or the renderer). */
export function renderTimeoutError(ms: number): JobError {
  return jobError('render_timeout', `conversion did not finish within ${ms / 1000} seconds`);
}

export function jobFailed(
  jobId: string,
  attempt: number | null,
  worker: string,
  error: JobError,
  now = new Date(),
): JobFailed {
  return { type: 'JobFailed', version: 1, ...base(jobId, now), attempt, worker, error };
}

export function webhookDeliveryAttempted(
  jobId: string,
  fields: Omit<WebhookDeliveryAttempted, 'type' | 'version' | 'event_id' | 'job_id' | 'occurred_at'>,
  now = new Date(),
): WebhookDeliveryAttempted {
  return { type: 'WebhookDeliveryAttempted', version: 1, ...base(jobId, now), ...fields, duration_ms: Math.round(fields.duration_ms) };
}

export function webhookRedeliveryRequested(jobId: string, requestId: string, worker: string, now = new Date()): WebhookRedeliveryRequested {
  return { type: 'WebhookRedeliveryRequested', version: 1, ...base(jobId, now), request_id: requestId, worker };
}
