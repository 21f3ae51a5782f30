/**
 * What a consumer does when handling an event fails. Two kinds, told apart by the error itself:
 * - transient: a store or the broker is away or slow (a connection refused or reset, a timeout, Postgres shutting
 *   down or out of connections, a deadlock). Retrying the same event later will work: the consumer waits with backoff
 *   on the same offset and skips nothing.
 * - permanent: the event itself cannot be applied (it does not decode, a value the store refuses, a constraint it
 *   breaks). Retrying will fail the same way, so after a few tries it is parked and the partition moves on.
 * An error this code does not recognise counts as permanent: it is still retried a few times first, and a parked
 * event can be re-applied by an operator, whereas treating it as transient could hold a partition forever.
 */
export type FailureKind = 'transient' | 'permanent';

/** Postgres SQLSTATE classes and codes that say "the server, not the statement": connection, resources, shutdown. */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '53', '57', '58']);
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '25006']);

/** Errors of sockets and of postgres.js' own connection handling. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Kafka client errors (@platformatic/kafka): a network error (a broker unreachable, a connection lost, a request that
 * timed out) or a broker answer the protocol marks retriable (a leader moving, a coordinator loading). Retries of the
 * client itself ran out behind either: the broker is still away, which is transient for the consumer that waits.
 */
const KAFKA_NETWORK = 'PLT_KFK_NETWORK';
const KAFKA_PROTOCOL = 'PLT_KFK_PROTOCOL';

/**
 * Some clients keep only the message of the network error underneath (the schema registry's HTTP client answers a
 * refused connection as a "400" whose message is the socket error's).
 */
const TRANSIENT_MESSAGE = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|socket hang up|timed? ?out)\b/i;

export function classifyFailure(error: unknown): FailureKind {
  for (const e of causeChain(error)) {
    if (isTransient(e)) return 'transient';
  }
  return 'permanent';
}

function isTransient(error: Record<string, unknown>): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const name = typeof error.name === 'string' ? error.name : '';
  if (code && TRANSIENT_CODES.has(code)) return true;
  // A SQLSTATE is five characters; only errors the Postgres server sent carry `severity`.
  if (code && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error) {
    return TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
  }
  if (code === KAFKA_NETWORK) return true;
  if (code === KAFKA_PROTOCOL && error.canRetry === true) return true;
  // The schema registry's HTTP client: server errors and throttling come and go, and so do the races of a subject's
  // first registration (Apicurio answers 409 "a rule named COMPATIBILITY already exists" to the loser, and reports
  // compatibility NONE until the global rule applies): registering again succeeds.
  if (name === 'ResponseError' && typeof error.status === 'number') {
    if (error.status >= 500 || error.status === 408 || error.status === 429 || error.status === 409) return true;
  }
  if (name === 'ConfluentSchemaRegistryCompatibilityError') return true;
  // Object storage (the AWS SDK marks what it would retry itself).
  if (error.$retryable || (typeof error.$metadata === 'object' && ((error.$metadata as { httpStatusCode?: number }).httpStatusCode ?? 0) >= 500)) {
    return true;
  }
  return typeof error.message === 'string' && TRANSIENT_MESSAGE.test(error.message);
}

/**
 * The error and what caused it, outermost first: `cause`, and the errors an AggregateError gathers (the Kafka client
 * reports "fetch failed 4 times" with each attempt's error inside).
 */
function causeChain(error: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  const visit = (current: unknown) => {
    if (!current || typeof current !== 'object' || chain.length >= 16 || chain.includes(current as Record<string, unknown>)) return;
    const e = current as Record<string, unknown>;
    chain.push(e);
    visit(e.cause ?? e.originalError);
    if (Array.isArray(e.errors)) for (const inner of e.errors) visit(inner);
  };
  visit(error);
  return chain;
}

/**
 * A refusal by the broker that sending the same request again cannot change (a record or a batch it will not take,
 * a protocol answer that is not retriable), as opposed to the broker or the network being away.
 */
export function refusedForGood(error: unknown): boolean {
  const chain = causeChain(error);
  return chain.some((e) => e.code === KAFKA_PROTOCOL && e.canRetry === false) && !chain.some((e) => isTransient(e));
}

/** Backoff before retry number `n` (1-based): doubling from `firstMs`, capped. */
export function backoffMs(n: number, firstMs = 250, capMs = 10_000): number {
  return Math.min(capMs, firstMs * 2 ** Math.max(0, n - 1));
}

/** Thrown out of a wait when the consumer is stopping or lost its partition: the event is left for whoever reads next. */
export class ConsumerStoppedError extends Error {
  constructor() {
    super('the consumer stopped before the event was handled; it will be read again');
    this.name = 'ConsumerStoppedError';
  }
}

export interface RetryContext {
  /** False once the consumer is stopping or its partition went to another member. */
  active(): boolean;
  /** Keeps the consumer's group membership alive while it waits. */
  heartbeat?(): Promise<void>;
  /** Told about each transient failure before the wait. */
  onTransient?(error: unknown, retry: number, delayMs: number): void;
}

/**
 * Runs `work` until it succeeds or fails permanently. A transient failure is retried in place, with backoff, for as
 * long as it lasts and the consumer is active; a permanent one is thrown to the caller at once.
 */
export async function retryTransient<T>(work: () => Promise<T>, ctx: RetryContext): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ConsumerStoppedError || classifyFailure(error) === 'permanent') throw error;
      const delay = backoffMs(retry);
      ctx.onTransient?.(error, retry, delay);
      await pause(delay, ctx);
    }
  }
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown; tries: number };

/**
 * Runs `work` with transient failures retried in place (as `retryTransient`) and permanent ones retried up to
 * `tries` times in all, quickly; then gives up and returns the last error, for the caller to park the event.
 */
export async function settle<T>(work: () => Promise<T>, ctx: RetryContext & { tries: number }): Promise<Settled<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await retryTransient(work, ctx) };
    } catch (error) {
      if (error instanceof ConsumerStoppedError) throw error;
      if (attempt >= ctx.tries) return { ok: false, error, tries: attempt };
      await pause(backoffMs(attempt, 200, 2000), ctx);
    }
  }
}

/** Waits `ms`, heartbeating, and gives up at once when the consumer stops being active. */
async function pause(ms: number, ctx: RetryContext): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (!ctx.active()) throw new ConsumerStoppedError();
    const left = until - Date.now();
    if (left <= 0) return;
    await new Promise((r) => setTimeout(r, Math.min(left, 1000)));
    await ctx.heartbeat?.().catch(() => {});
  }
}

/** What an error says, in one line, for a log or a parked record. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
  }
  return String(error);
}
