import { Type, type TSchema } from '@sinclair/typebox';
import { OUTPUTS } from '@folio/events';
import { HEADERS } from './responses.ts';

/**
 * The bodies of the endpoints beyond the interface that read a key's history (GET /v2/jobs, GET /v2/jobs/{id}/events,
 * GET /v2/usage) and act on its jobs (rerun, webhook redelivery), as shared schemas named by `$id` like `bodies.ts`'s.
 * They describe what is sent and never shape it (`serialize.ts`).
 */

const dateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const nextCursor = nullable(Type.String({ description: 'pass as `cursor` for the next page; null on the last page' }));

/** What every history entry carries: when, and where in Folio's Kafka log the event sits. */
const entryFields = (kind: string, description: string) => ({
  kind: Type.Literal(kind, { description }),
  event_id: Type.String({ format: 'uuid' }),
  event_type: Type.String({ description: 'the event’s name in the log (JobQueued, JobProcessing, …)' }),
  occurred_at: dateTime('when its writer recorded it'),
  effective: Type.Boolean({ description: 'false for an event that changed nothing: an outcome after the job had ended (a late success after a timeout), a duplicate' }),
  topic: Type.String({ description: 'the Kafka topic it was read from' }),
  partition: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
});
const worker = Type.String({ description: 'the process that wrote it: a renderer (host/pid), `api` or a dispatcher' });

export const JobHistoryEntry = Type.Union(
  [
    Type.Object({
      ...entryFields('queued', 'the request was accepted (JobQueued)'),
      lane: Type.Union([Type.Literal('sync'), Type.Literal('async')]),
      output: Type.Union(OUTPUTS.map((o) => Type.Literal(o))),
      input: Type.Union([Type.Literal('url'), Type.Literal('html'), Type.Literal('markdown')], { description: 'which kind of input was sent' }),
      webhook_url: nullable(Type.String({ format: 'uri' })),
      rerun_of: nullable(Type.String({ format: 'uuid', description: 'the job this one reruns (POST /v2/jobs/{id}/rerun)' })),
    }),
    Type.Object({ ...entryFields('processing', 'a renderer started an attempt (JobProcessing)'), attempt: Type.Integer({ minimum: 1 }), worker }),
    Type.Object({
      ...entryFields('succeeded', 'the conversion succeeded (JobSucceeded)'),
      attempt: Type.Integer({ minimum: 1 }),
      worker,
      duration_ms: Type.Integer({ minimum: 0, description: 'how long the conversion took' }),
    }),
    Type.Object({
      ...entryFields('failed', 'the job failed (JobFailed): a conversion error, or the synchronous ceiling recorded by the api'),
      attempt: nullable(Type.Integer({ minimum: 1 })),
      worker,
      error: Type.Ref('ErrorObject'),
    }),
    Type.Object({
      ...entryFields('webhook_attempt', 'one POST of the job-finished callback (WebhookDeliveryAttempted)'),
      attempt: Type.Integer({ minimum: 1, description: '1 for the first POST; retries and redeliveries count on' }),
      worker,
      url: Type.String({ format: 'uri' }),
      status_code: nullable(Type.Integer({ description: 'the receiver’s HTTP status; null when there was no answer' })),
      error: nullable(Type.String({ description: 'why it was not delivered' })),
      duration_ms: Type.Integer({ minimum: 0 }),
      outcome: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('gave_up'), Type.Literal('not_sent')]),
      next_attempt_at: nullable(dateTime('when the next retry is due (outcome retrying)')),
    }),
    Type.Object({
      ...entryFields('webhook_redelivery_requested', 'the key’s owner asked for the callback once more (WebhookRedeliveryRequested)'),
      request_id: Type.String({ description: 'X-Request-Id of the request that asked' }),
    }),
    Type.Object({
      ...entryFields('rerun', 'a rerun of this job was started: the new job’s JobQueued, which names this job in rerun_of'),
      rerun_job_id: Type.String({ format: 'uuid', description: 'the new job' }),
    }),
  ],
  { $id: 'JobHistoryEntry', description: 'one event in a job’s history, by `kind`' },
);

export const JobHistoryPage = Type.Object(
  { job_id: Type.String({ format: 'uuid' }), data: Type.Array(Type.Ref('JobHistoryEntry')), next_cursor: nextCursor },
  { $id: 'JobHistoryPage', description: 'a page of a job’s history, oldest first' },
);

export const JobPage = Type.Object(
  { data: Type.Array(Type.Ref('Job'), { description: 'each exactly as GET /v2/jobs/{id} returns it' }), next_cursor: nextCursor },
  { $id: 'JobPage', description: 'a page of the key’s jobs, newest first' },
);

export const UsageLedgerEntry = Type.Object(
  {
    job_id: Type.String({ format: 'uuid' }),
    counted_at: dateTime('when its success was counted'),
    output: nullable(Type.String({ description: 'pdf, docx, markdown, json, html or text (null for documents counted before it was kept)' })),
    ordinal: Type.Integer({ minimum: 1, description: 'its number in the month: the used_this_period its result reports' }),
  },
  { $id: 'UsageLedgerEntry', description: 'one document that counted toward the plan' },
);

export const UsageLedgerPage = Type.Object(
  {
    period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'the calendar month (UTC)' }),
    usage: Type.Ref('Usage'),
    data: Type.Array(Type.Ref('UsageLedgerEntry')),
    next_cursor: nextCursor,
  },
  { $id: 'UsageLedgerPage', description: 'the documents counted in a month, in the order they were counted' },
);

export const WebhookRedeliveryAccepted = Type.Object(
  {
    status: Type.Literal('queued'),
    job_id: Type.String({ format: 'uuid' }),
    event_id: Type.String({ format: 'uuid', description: 'the WebhookRedeliveryRequested event; the attempt follows it in the job’s events' }),
    events_url: Type.String({ format: 'uri', description: 'GET /v2/jobs/{id}/events of the job' }),
  },
  { $id: 'WebhookRedeliveryAccepted', description: 'the callback will be sent once more' },
);

/** Every schema of this file, each after those it refers to. */
export const HISTORY_SCHEMAS: TSchema[] = [JobHistoryEntry, JobHistoryPage, JobPage, UsageLedgerEntry, UsageLedgerPage, WebhookRedeliveryAccepted];

const ref = (id: string) => Type.Ref(id);
const answer = (description: string, body: TSchema, ...extra: Array<'Retry-After' | 'Location'>) => ({
  ...body,
  description,
  headers: Object.fromEntries(['X-Request-Id' as const, ...extra].map((h) => [h, HEADERS[h]])),
});
const failure = (description: string, ...extra: Array<'Retry-After'>) => answer(description, ref('ErrorResponse'), ...extra);

const unauthorized = failure('api_key_required, invalid_api_key or subscription_inactive');
const readLimited = failure('rate_limited: more reads than the polling budget allows (shared with GET /v2/jobs/{id}); wait Retry-After seconds', 'Retry-After');
const notFound = failure('job_not_found: a wrong id, another key’s job, or a job older than 48 hours');
const badId = failure('invalid_parameters: the id is not a job id (a uuid)');

export const historyResponses = {
  200: answer('the job’s history, oldest first', ref('JobHistoryPage')),
  400: failure('invalid_parameters: limit or cursor (errors names them)'),
  401: unauthorized,
  404: notFound,
  422: badId,
  429: readLimited,
};

export const jobListResponses = {
  200: answer('the key’s readable jobs, newest first', ref('JobPage')),
  400: failure('invalid_parameters: a filter, limit or cursor (errors names each)'),
  401: unauthorized,
  429: readLimited,
};

export const usageLedgerResponses = {
  200: answer('the documents counted in the month', ref('UsageLedgerPage')),
  400: failure('invalid_parameters: period, limit or cursor (errors names each)'),
  401: unauthorized,
  429: readLimited,
};

export const rerunResponses = {
  202: answer('the rerun is accepted as a new background job; read it at Location', ref('ConvertJobAccepted'), 'Location'),
  400: failure('invalid_parameters: the original’s request is no longer admitted (an address now private), or html_too_large'),
  401: failure('api_key_required, invalid_api_key, subscription_inactive or limit_exceeded'),
  402: failure('quota_exceeded: the free plan has no documents left this month (upgrade_url says where to upgrade)'),
  404: notFound,
  422: badId,
  429: failure('rate_limited: too many requests that start work (the budget of POST /v2/convert); wait Retry-After seconds', 'Retry-After'),
};

export const redeliverResponses = {
  202: answer('the callback will be sent once more; the attempt shows in the job’s events', ref('WebhookRedeliveryAccepted')),
  401: unauthorized,
  404: notFound,
  422: failure(
    'invalid_parameters: the id is not a job id, the job was started without a webhook_url, it has not finished, or its callback is still being delivered',
  ),
  429: readLimited,
};
