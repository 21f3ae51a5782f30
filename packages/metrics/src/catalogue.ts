import { Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * Every metric Folio defines, in one place, so that names, labels and buckets are read and reviewed together
 * (Prometheus' naming rules: `folio_` first, base units, `_total` on counters, `_seconds` and `_bytes`). No label takes
 * a job id, a key, a URL or an error message: their values are unbounded and each one would be a series of its own.
 *
 * Each group is made on first use, on prom-client's default registry, so that a process exposes the metrics of what it
 * does (the API has no Chromium gauges) and a module that is imported but not used adds nothing.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** From a millisecond to the sync ceiling and past it. */
const QUICK_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 27];
/** A job's time waiting or rendering: from a few milliseconds to half an hour (an async backlog). */
const JOB_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 27, 60, 300, 1800];

/** The API's answers. */
export const httpMetrics = onFirstUse(() => ({
  requests: new Histogram({
    name: 'folio_http_request_duration_seconds',
    help: "Requests the API answered, by route (its template, never the path), method, status code and the key's plan (none before a key is known); _count is the number of requests.",
    labelNames: ['route', 'method', 'status', 'plan'] as const,
    buckets: QUICK_SECONDS,
  }),
  rateLimited: new Counter({
    name: 'folio_rate_limit_refusals_total',
    help: "Requests refused with 429 before any work, by the limit that refused them: the key's request budget (requests), or the renderers' sync backlog (sync_backlog).",
    labelNames: ['limit', 'plan'] as const,
  }),
  quotaRefused: new Counter({
    name: 'folio_quota_refusals_total',
    help: 'Conversions refused because the key has no documents left: quota_exceeded (the plan\'s month) or limit_exceeded (the key\'s own limit).',
    labelNames: ['code', 'plan'] as const,
  }),
}));

/** Jobs through their life: accepted by the API, ended in the read model (the projector sees every job once). */
export const jobMetrics = onFirstUse(() => ({
  accepted: new Counter({
    name: 'folio_jobs_accepted_total',
    help: 'Jobs written to the log (JobQueued), by output, mode (sync or async) and plan.',
    labelNames: ['output', 'mode', 'plan'] as const,
  }),
  rewritten: new Counter({
    name: 'folio_jobs_rewritten_total',
    help: "JobQueued writes whose outcome was unknown (the producer was cut off at its deadline), written again, by what came of it: appended (a copy is known to be in the log; the caller got its job) or unknown (none confirmed by the caller's deadline; the caller got render_failed).",
    labelNames: ['settled'] as const,
  }),
  finished: new Counter({
    name: 'folio_jobs_finished_total',
    help: "Jobs that reached their final state in the read model, by outcome, output, lane and error code (empty on success).",
    labelNames: ['outcome', 'output', 'lane', 'code'] as const,
  }),
  queued: new Histogram({
    name: 'folio_job_queued_seconds',
    help: 'Time a job waited from its acceptance to its first start, by lane.',
    labelNames: ['lane'] as const,
    buckets: JOB_SECONDS,
  }),
  rendering: new Histogram({
    name: 'folio_job_rendering_seconds',
    help: 'Time from a job\'s first start to its end (a retry\'s runs included), by output and outcome.',
    labelNames: ['output', 'outcome'] as const,
    buckets: JOB_SECONDS,
  }),
  counted: new Counter({
    name: 'folio_documents_counted_total',
    help: 'Documents the meter counted (each successful job once, when its success is projected).',
  }),
}));

/** The renderer's conversions. */
export const conversionMetrics = onFirstUse(() => ({
  duration: new Histogram({
    name: 'folio_conversion_duration_seconds',
    help: 'Conversion runs in the renderer (fetching, extracting, rendering and storing the result), by input, output and outcome (succeeded; failed: the job fails; again: it will be tried again); _count is the number of runs.',
    labelNames: ['input', 'output', 'outcome'] as const,
    buckets: JOB_SECONDS,
  }),
}));

/** Chromium, as the renderer's pdf engine runs it. */
export const chromiumMetrics = onFirstUse(() => ({
  tabs: new Gauge({ name: 'folio_chromium_tabs', help: 'Chromium tabs open, by state (busy printing, or idle and warm).', labelNames: ['state'] as const }),
  restarts: new Counter({
    name: 'folio_chromium_restarts_total',
    help: 'Chromium started again: the browser (what=browser) after it was lost (crashed, killed), or a tab (what=tab) retired because the browser went over its memory budget.',
    labelNames: ['what', 'reason'] as const,
  }),
  memory: new Gauge({ name: 'folio_chromium_memory_bytes', help: "Memory of the browser's processes, as last measured (resident, shared pages counted once)." }),
}));

/** Callbacks, as the dispatcher sends them. */
export const callbackMetrics = onFirstUse(() => ({
  attempts: new Histogram({
    name: 'folio_callback_attempt_duration_seconds',
    help: 'Callback attempts, by outcome (delivered: a 2xx; retrying: anything else, another attempt is due; gave_up: anything else, and it was the last attempt; not_sent: it could not be signed or the job had expired), with the time the receiver took; _count is the number of attempts.',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
}));

/** The event log: writes and the consumer groups' progress. */
export const logMetrics = onFirstUse(() => ({
  produce: new Histogram({
    name: 'folio_kafka_produce_duration_seconds',
    help: 'Produce requests to Kafka (acks=all), by outcome (ok, error, timeout: given up on at the deadline), with their time.',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 20],
  }),
  lag: new Gauge({
    name: 'folio_consumer_lag',
    help: "Events in a partition that a consumer group has not committed yet, by group, topic and partition.",
    labelNames: ['group', 'topic', 'partition'] as const,
  }),
  members: new Gauge({ name: 'folio_consumer_group_members', help: 'Members of each consumer group (0: nobody consumes its topics).', labelNames: ['group'] as const }),
  parked: new Gauge({ name: 'folio_parked_events', help: 'Events parked because they can never be applied, waiting for an operator (folio parked list).' }),
}));

/** Postgres connection pools of this process. */
export const poolMetrics = onFirstUse(() => ({
  connections: new Gauge({
    name: 'folio_postgres_pool_connections',
    help: 'Connections of a Postgres pool by state: busy (a query in flight), reserved (held for a transaction), idle, connecting.',
    labelNames: ['pool', 'state'] as const,
  }),
  waiting: new Gauge({ name: 'folio_postgres_pool_waiting_queries', help: 'Queries waiting for a connection of the pool.', labelNames: ['pool'] as const }),
  size: new Gauge({ name: 'folio_postgres_pool_max_connections', help: 'The most connections the pool opens.', labelNames: ['pool'] as const }),
}));

export { register };
