/**
 * The job events as plain typed data, in their current versions.
 * Older versions live only in `schemas.ts` (their wire shape) and `upcast.ts` (how they become today's shape).
 */

export type Output = 'pdf' | 'docx' | 'markdown' | 'json' | 'html' | 'text';
export const OUTPUTS: readonly Output[] = ['pdf', 'docx', 'markdown', 'json', 'html', 'text'];

export type Lane = 'sync' | 'async';
export type InputKind = 'url' | 'html' | 'markdown';

/** A claim check: where a large payload sits in object storage, instead of riding inside an event. */
export interface BlobRef {
  key: string;
  size: number;
  content_type: string;
}

export interface JobInput {
  kind: InputKind;
  /** The input itself when it is small enough to travel inside the event. */
  text: string | null;
  /** Otherwise where it was stored. */
  ref: BlobRef | null;
}

/** Conversion options as the interface names them; null when not sent. */
export interface ConversionOptions {
  title: string | null;
  source_url: string | null;
  page_size: string | null;
  css_url: string | null;
  header_text: string | null;
  header_image_url: string | null;
  lang: string | null;
  dir: string | null;
  include_links: boolean;
}

/** Options when none were sent. */
export const DEFAULT_OPTIONS: ConversionOptions = Object.freeze({
  title: null,
  source_url: null,
  page_size: null,
  css_url: null,
  header_text: null,
  header_image_url: null,
  lang: null,
  dir: null,
  include_links: false,
});

export interface ArticleMeta {
  title: string;
  url: string | null;
  site: string | null;
  author: string | null;
  date: string | null;
  excerpt: string | null;
  image: string | null;
  word_count: number;
}

/** A stored pdf or docx: the link is made from it when the job is read. */
export interface StoredFile {
  key: string;
  size_bytes: number;
  content_type: string;
  stored_at: string;
}

export interface JobResult {
  output: Output;
  /** markdown, html and text results when small; json's ArticleDocument as JSON text when small. */
  content: string | null;
  /** The same, by claim check, when large. */
  content_ref: BlobRef | null;
  /** pdf and docx. */
  file: StoredFile | null;
  document: ArticleMeta;
}

export interface JobError {
  code: string;
  message: string;
  retryable: boolean;
}

interface EventBase {
  event_id: string;
  job_id: string;
  /** ISO 8601, set by the writer of the event. */
  occurred_at: string;
}

export interface JobQueued extends EventBase {
  type: 'JobQueued';
  version: 3;
  request_id: string;
  key_id: string;
  lane: Lane;
  output: Output;
  input: JobInput;
  options: ConversionOptions;
  webhook_url: string | null;
  /** When the job stops being readable. */
  expires_at: string;
  /** The job this one reruns with the same request (POST /v2/jobs/{id}/rerun), or null. Since v3. */
  rerun_of: string | null;
}

export interface JobProcessing extends EventBase {
  type: 'JobProcessing';
  version: 1;
  attempt: number;
  worker: string;
}

export interface JobSucceeded extends EventBase {
  type: 'JobSucceeded';
  version: 1;
  attempt: number;
  worker: string;
  duration_ms: number;
  result: JobResult;
}

export interface JobFailed extends EventBase {
  type: 'JobFailed';
  version: 1;
  /** null when the failure was not an attempt (e.g. the API recording a sync timeout). */
  attempt: number | null;
  worker: string;
  error: JobError;
}

/** How one attempt at a job's completion callback ended. */
export type DeliveryOutcome =
  /** The receiver answered 2xx: the callback is delivered and no more attempts follow. */
  | 'delivered'
  /** Any other answer, a refused or failed connection, or no answer in time: another attempt is scheduled. */
  | 'retrying'
  /** As `retrying`, but it was the last attempt the schedule allows. */
  | 'gave_up'
  /** Nothing was sent and nothing will be (the callback cannot be signed: the key is gone or sealed under another secret). */
  | 'not_sent';

/**
 * One attempt at delivering a job's completion callback, written by the dispatcher after the attempt (so a crash
 * between sending and writing this may repeat that attempt: at-least-once, as the interface warns receivers).
 */
export interface WebhookDeliveryAttempted extends EventBase {
  type: 'WebhookDeliveryAttempted';
  version: 1;
  /** 1 for the first POST, up to 1 + the number of retries. */
  attempt: number;
  worker: string;
  url: string;
  /** The receiver's HTTP status, or null when there was no answer. */
  status_code: number | null;
  /** Why the attempt did not deliver (connection refused, timeout, a non-2xx answer, cannot sign), or null. */
  error: string | null;
  duration_ms: number;
  outcome: DeliveryOutcome;
  /** When the next attempt is due, for `retrying`. */
  next_attempt_at: string | null;
}

/**
 * The key's owner asked for a finished job's callback to be sent once more (POST /v2/jobs/{id}/webhook/redeliver).
 * Written by the API on the lifecycle topic; the dispatcher reads it and owes one more attempt, which it records as
 * a WebhookDeliveryAttempted like any other.
 */
export interface WebhookRedeliveryRequested extends EventBase {
  type: 'WebhookRedeliveryRequested';
  version: 1;
  /** The HTTP request that asked for it (X-Request-Id). */
  request_id: string;
  worker: string;
}

export type JobEvent = JobQueued | JobProcessing | JobSucceeded | JobFailed | WebhookDeliveryAttempted | WebhookRedeliveryRequested;
export type JobEventType = JobEvent['type'];

/** The current version of each event type. */
export const CURRENT_VERSION = {
  JobQueued: 3,
  JobProcessing: 1,
  JobSucceeded: 1,
  JobFailed: 1,
  WebhookDeliveryAttempted: 1,
  WebhookRedeliveryRequested: 1,
} as const satisfies Record<JobEventType, number>;
