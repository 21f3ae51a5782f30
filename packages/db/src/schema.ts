import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** API keys. Only a SHA-256 of each key is kept; the key itself is shown once, when it is made. */
export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey(),
  keyHash: text('key_hash').notNull().unique(),
  /** The first characters of the key, to tell keys apart in listings without revealing them. */
  keyPrefix: text('key_prefix').notNull(),
  /** The key itself, sealed (AES-256-GCM under the server's key secret): callbacks are signed with it. */
  keySealed: text('key_sealed'),
  plan: text('plan').notNull(),
  /** The key's own document limit (`folio keys create --limit N`), or null. */
  documentLimit: integer('document_limit'),
  active: boolean('active').notNull().default(true),
  createdAt: tz('created_at').notNull().default(sql`now()`),
});

/** Read model: one row a job, folded from its events only (so a replay of the log rebuilds it exactly). */
export const jobs = pgTable(
  'jobs',
  {
    jobId: uuid('job_id').primaryKey(),
    /** null until the job's JobQueued has been projected (events of a job may arrive on different topics). */
    keyId: uuid('key_id'),
    status: text('status').notNull(),
    lane: text('lane'),
    output: text('output'),
    requestId: text('request_id'),
    webhookUrl: text('webhook_url'),
    createdAt: tz('created_at'),
    startedAt: tz('started_at'),
    finishedAt: tz('finished_at'),
    expiresAt: tz('expires_at'),
    attempts: integer('attempts').notNull().default(0),
    result: jsonb('result'),
    error: jsonb('error'),
    /** The event that made the job final: the first terminal event in log order. */
    terminalEventId: uuid('terminal_event_id'),
  },
  (t) => [
    index('jobs_key_finished_idx').on(t.keyId, t.finishedAt),
    // GET /v2/jobs: a key's jobs, newest first (the cursor is the last row's created_at and job_id).
    index('jobs_key_created_idx').on(t.keyId, t.createdAt.desc(), t.jobId.desc()),
  ],
);

/** Read model: every event of every job, as projected, for audit. `effective` is false for events that changed nothing. */
export const jobHistory = pgTable(
  'job_history',
  {
    eventId: uuid('event_id').primaryKey(),
    jobId: uuid('job_id').notNull(),
    type: text('type').notNull(),
    version: integer('version').notNull(),
    occurredAt: tz('occurred_at').notNull(),
    attempt: integer('attempt'),
    worker: text('worker'),
    effective: boolean('effective').notNull(),
    topic: text('topic').notNull(),
    partition: integer('partition').notNull(),
    offset: bigint('offset', { mode: 'number' }).notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [
    index('job_history_job_idx').on(t.jobId, t.topic, t.partition, t.offset),
    // A job's reruns (JobQueued v3 `rerun_of`), shown in the original's GET /v2/jobs/{id}/events.
    index('job_history_rerun_of_idx').on(sql`(${t.data}->>'rerun_of')`).where(sql`type = 'JobQueued'`),
  ],
);

/** How far the projection has read each partition, committed in the same transaction as the rows it produced. */
export const projectionCheckpoints = pgTable(
  'projection_checkpoints',
  {
    topic: text('topic').notNull(),
    partition: integer('partition').notNull(),
    nextOffset: bigint('next_offset', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.topic, t.partition] })],
);

/**
 * Read model: every attempt at a job's completion callback, folded from WebhookDeliveryAttempted events (so a
 * rebuild gives the same rows). An attempt repeated after a dispatcher crash appears twice, as it happened.
 */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    eventId: uuid('event_id').primaryKey(),
    jobId: uuid('job_id').notNull(),
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome').notNull(),
    nextAttemptAt: tz('next_attempt_at'),
    occurredAt: tz('occurred_at').notNull(),
  },
  (t) => [index('delivery_attempts_job_idx').on(t.jobId, t.attempt)],
);

/** The tables derived from the log: what `folio replay` rebuilds beside the live ones and swaps in. */
export const READ_MODEL_TABLES = ['jobs', 'job_history', 'delivery_attempts', 'projection_checkpoints'] as const;

/**
 * The dispatcher's durable schedule of callbacks: a row per finished job that has a webhook_url, made when the
 * dispatcher reads the job's terminal event, and the attempts still owed on it. Dispatcher state, not a read model:
 * a rebuild of the read models must not send callbacks again. Processes claim due rows with SKIP LOCKED; a claim
 * moves `next_attempt_at` past the answer time, so the row of a dispatcher that dies mid-attempt becomes due again
 * (that attempt is repeated: at-least-once) and the rows of a dispatcher that dies between attempts simply wait.
 */
export const deliverySchedule = pgTable(
  'delivery_schedule',
  {
    jobId: uuid('job_id').primaryKey(),
    keyId: uuid('key_id').notNull(),
    url: text('url').notNull(),
    /** host:port of the receiver: no host gets more than its share of a dispatcher's connections. */
    host: text('host').notNull(),
    /** The exact bytes every attempt sends, kept at the first attempt (a retry sends the same bytes, signed the same). */
    body: text('body'),
    attemptsMade: integer('attempts_made').notNull().default(0),
    /** The attempt owed is one the key's owner asked for (POST /v2/jobs/{id}/webhook/redeliver): one POST, no retries. */
    redelivery: boolean('redelivery').notNull().default(false),
    /** The WebhookRedeliveryRequested last applied, so a batch the dispatcher reads again does not send it twice. */
    redeliveryEventId: uuid('redelivery_event_id'),
    /** `pending` while attempts are owed; then `delivered`, `gave_up` or `not_sent`. */
    state: text('state').notNull(),
    /**
     * The W3C trace context of the projector's step that owed it (`traceparent`, `tracestate`), when traces are
     * exported: the delivery's span continues the job's trace, and the callback carries it on to the receiver.
     */
    trace: jsonb('trace'),
    nextAttemptAt: tz('next_attempt_at').notNull(),
    finishedAt: tz('finished_at'),
    expiresAt: tz('expires_at').notNull(),
    updatedAt: tz('updated_at').notNull().default(sql`now()`),
  },
  (t) => [index('delivery_schedule_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`), index('delivery_schedule_expires_idx').on(t.expiresAt)],
);

/**
 * The dead-letter store: events a consumer could never apply, with where they sit in the log and why. Not a read
 * model: a rebuild keeps it (the events stay in the log, and a rebuild that now applies one marks it resolved).
 * One row per consumer and log position; parking the same event again updates it.
 */
export const parkedEvents = pgTable(
  'parked_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The consumer group that parked it, without the topic prefix (`folio-projector`, `folio-renderer-sync`…). */
    consumer: text('consumer').notNull(),
    topic: text('topic').notNull(),
    partition: integer('partition').notNull(),
    offset: bigint('offset', { mode: 'number' }).notNull(),
    /** The message key: the job id for every Folio event. */
    jobId: text('job_id'),
    eventType: text('event_type'),
    error: text('error').notNull(),
    tries: integer('tries').notNull(),
    parkedAt: tz('parked_at').notNull().default(sql`now()`),
    /** Set when `folio parked retry` (or a replay) applied it. */
    resolvedAt: tz('resolved_at'),
  },
  (t) => [unique('parked_events_position').on(t.consumer, t.topic, t.partition, t.offset)],
);

/**
 * How renderers have started each job, across processes and restarts: a job that takes its renderer down every time
 * (a native crash, out of memory, Chromium killing it) is failed once `counted` passes FOLIO_RENDER_ATTEMPTS, instead
 * of cycling through the renderer fleet forever. Written before each run, so a crash cannot lose it.
 */
export const renderAttempts = pgTable('render_attempts', {
  jobId: uuid('job_id').primaryKey(),
  /** Every start, numbering the job's JobProcessing events. */
  attempts: integer('attempts').notNull(),
  /**
   * Runs that count toward the limit: the first, and each later one once the job runs alone in its renderer (so a
   * renderer's death is the job's own doing); a run ended by its consumer stopping is taken back.
   */
  counted: integer('counted').notNull(),
  worker: text('worker').notNull(),
  startedAt: tz('started_at').notNull(),
});

/**
 * The meter: one row per successful document, keyed by job id so that redelivery, replay and crashes never count a job
 * twice (invariant 3, docs/invariants.md). `ordinal` is the document's number within its key's month (1, 2, 3…), given
 * under a per-key lock when the success is projected, so concurrent successes of one key each report their own exact
 * count. Never touched by a replay: a count once told to a user is not renumbered.
 */
export const usage = pgTable(
  'usage',
  {
    jobId: uuid('job_id').primaryKey(),
    keyId: uuid('key_id').notNull(),
    /** The calendar month (UTC) of the success, `YYYY-MM`. */
    period: text('period').notNull(),
    ordinal: integer('ordinal').notNull(),
    countedAt: tz('counted_at').notNull(),
    /** What the document was (pdf, markdown…), for the ledger (GET /v2/usage); null on rows counted before it was kept. */
    output: text('output'),
  },
  (t) => [unique('usage_key_period_ordinal').on(t.keyId, t.period, t.ordinal), index('usage_key_idx').on(t.keyId)],
);

/**
 * Documents promised at admission and not yet settled: a capped key's request reserves one before its job is queued, so
 * concurrent requests can never take it past its cap (invariant 4, docs/invariants.md). The projector turns a
 * reservation into usage when the job succeeds and drops it when the job fails; one that outlives its job's readability
 * no longer counts.
 */
export const quotaReservations = pgTable(
  'quota_reservations',
  {
    jobId: uuid('job_id').primaryKey(),
    keyId: uuid('key_id').notNull(),
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [index('quota_reservations_key_idx').on(t.keyId)],
);

/**
 * Idempotent intake (`Idempotency-Key` on POST /v2/convert, as Stripe accepts it): the first request under a key
 * claims it for its job; a retry with the same parameters within 24 hours gets that job's outcome instead of a new
 * conversion, and one with different parameters is refused. API state, not a read model.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    keyId: uuid('key_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the request's parameters as interpreted (so the same request in another encoding matches). */
    requestHash: text('request_hash').notNull(),
    jobId: uuid('job_id').notNull(),
    async: boolean('async').notNull(),
    createdAt: tz('created_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Request counts per key, budget and one-minute window, shared by every API process (each adds what it admitted
 * since its last flush, a few times a second). Old windows are deleted as they pass.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: uuid('key_id').notNull(),
    bucket: text('bucket').notNull(),
    windowStart: tz('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.bucket, t.windowStart] })],
);
