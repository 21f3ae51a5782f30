import { callbackMetrics } from '@folio/metrics';
import { contextOf, inSpan, SpanKind, trace, traceHeaders } from '@folio/tracing';
import type { Agent } from 'undici';
import type { Database } from '@folio/db';
import { webhookDeliveryAttempted, type DeliveryOutcome } from '@folio/events';
import { retryTransient, type EventPublisher, type RetryContext } from '@folio/event-log';
import { jobJson, loadJob, jobResource, type ViewContext } from '@folio/job-view';
import type { Plan } from '@folio/keys';
import type { Logger } from '@folio/logging';
import type { NetworkPolicy } from '@folio/network-policy';
import {
  afterAttempt,
  keepCallbackBody,
  postCallback,
  recordAttempt,
  signCallback,
  type AttemptResult,
  type ScheduledCallback,
} from '@folio/webhooks';
import type { SigningKeys } from './signing-keys.ts';

export interface DeliveryContext {
  database: Database;
  view: ViewContext;
  keys: SigningKeys;
  publisher: EventPublisher;
  agent: Agent;
  policy: NetworkPolicy;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  worker: string;
  logger: Logger;
}

/**
 * Makes one attempt at a job's completion callback and records it: a WebhookDeliveryAttempted event (the history),
 * then the schedule row (the next retry, or the end). The event is written first, so a crash between the two repeats
 * this attempt rather than losing its record; the interface warns receivers that a callback can arrive twice.
 *
 * The body is the job exactly as `GET /v2/jobs/{id}` renders it (invariant 9, docs/invariants.md), made by the same
 * code on the first attempt and kept, so every retry sends the same bytes with a signature over exactly them. A
 * callback that cannot be signed (its key deleted, or sealed under a secret this deployment no longer has) is recorded
 * as not sent, with why, and ends there: it never holds up the others.
 */
export async function deliverCallback(ctx: DeliveryContext, callback: ScheduledCallback, waiting: RetryContext): Promise<void> {
  // The attempt continues the job's trace; the receiver gets it as `traceparent` and can continue it too.
  await inSpan(
    'deliver callback',
    { 'folio.job_id': callback.job_id, 'folio.attempt': callback.attempts_made + 1, 'server.address': callback.host },
    () => attemptDelivery(ctx, callback, waiting),
    { parent: contextOf(callback.trace ?? undefined), kind: SpanKind.CLIENT },
  );
}

async function attemptDelivery(ctx: DeliveryContext, callback: ScheduledCallback, waiting: RetryContext): Promise<void> {
  const attempt = callback.attempts_made + 1;
  const log = ctx.logger.child({ job_id: callback.job_id, attempt });

  const signer = await retryTransient(() => ctx.keys.get(callback.key_id), waiting);
  if ('unavailable' in signer) return record(ctx, callback, attempt, { statusCode: null, error: `not sent: ${signer.unavailable}`, durationMs: 0 }, 'not_sent', null, waiting, log);

  const body = callback.body ?? (await retryTransient(() => renderBody(ctx, callback, signer.plan), waiting));
  if (body === null) {
    const unreadable = { statusCode: null, error: 'not sent: the job is no longer readable (expired)', durationMs: 0 };
    return record(ctx, callback, attempt, unreadable, 'not_sent', null, waiting, log);
  }

  const now = new Date();
  const result = await postCallback(ctx.agent, ctx.policy, {
    url: callback.url,
    body,
    headers: { ...signCallback(signer.key, callback.job_id, body, now.getTime() / 1000), ...traceHeaders() },
    timeoutMs: ctx.timeoutMs,
  });
  // A redelivery the key's owner asked for is one POST: its outcome is final either way.
  const next = afterAttempt(attempt, result, callback.redelivery ? [] : ctx.retryDelaysMs, new Date());
  await record(ctx, callback, attempt, result, next.outcome, next.nextAttemptAt, waiting, log);
}

/** The callback's bytes: rendered from the read model by the API's own code, and kept for every later attempt. */
async function renderBody(ctx: DeliveryContext, callback: ScheduledCallback, plan: Plan): Promise<string | null> {
  const row = await loadJob(ctx.view.sql, callback.job_id, callback.key_id);
  if (!row) return null;
  const body = jobJson(await jobResource(ctx.view, row, plan));
  return keepCallbackBody(ctx.database.sql, callback.job_id, body);
}

async function record(
  ctx: DeliveryContext,
  callback: ScheduledCallback,
  attempt: number,
  result: AttemptResult,
  outcome: DeliveryOutcome,
  nextAttemptAt: Date | null,
  waiting: RetryContext,
  log: Logger,
): Promise<void> {
  const event = webhookDeliveryAttempted(callback.job_id, {
    attempt,
    worker: ctx.worker,
    url: callback.url,
    status_code: result.statusCode,
    error: result.error,
    duration_ms: result.durationMs,
    outcome,
    next_attempt_at: nextAttemptAt?.toISOString() ?? null,
  });
  await retryTransient(() => ctx.publisher.publish(event), waiting);
  await retryTransient(() => recordAttempt(ctx.database.sql, callback.job_id, attempt, outcome, nextAttemptAt), waiting);
  callbackMetrics().attempts.observe({ outcome }, result.durationMs / 1000);
  trace.getActiveSpan()?.setAttributes({ 'folio.delivery_outcome': outcome, ...(result.statusCode !== null ? { 'http.response.status_code': result.statusCode } : {}) });
  const fields = { status_code: result.statusCode, error: result.error, duration_ms: result.durationMs, outcome, next_attempt_at: nextAttemptAt };
  if (outcome === 'delivered') log.info(fields, 'callback delivered');
  else log.warn(fields, outcome === 'retrying' ? 'callback not delivered: it will be retried' : 'callback not delivered: no more attempts');
}
