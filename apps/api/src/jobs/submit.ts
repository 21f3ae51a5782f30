import { httpMetrics, jobMetrics } from '@folio/metrics';
import { trace } from '@folio/tracing';
import type { Sql } from '@folio/db';
import { jobQueued, newJobId, type JobInput, type JobQueued } from '@folio/events';
import type { EventPublisher } from '@folio/event-log';
import { claimCheck, type BlobStore } from '@folio/storage';
import type { ApiKey } from '@folio/keys';
import { releaseReservation, reserveDocument, type Reservation } from '@folio/metering';
import { ApiError } from '../errors.ts';
import { publishUntilKnown, releaseUnlessQueued } from './unknown-outcome.ts';
import type { ConvertRequest } from './convert-request.ts';

export interface SubmitContext {
  sql: Sql;
  /** Where a free key that has used its month is sent (quota_exceeded's upgrade_url). */
  upgradeUrl: string;
  publisher: EventPublisher;
  store: BlobStore;
  claimCheckBytes: number;
  jobTtlSeconds: number;
}

/**
 * Turns an accepted request into a JobQueued event. A capped key reserves its document first, so concurrent requests
 * cannot take it past its cap; the reservation is given back if the job never reaches the log. An input too large to
 * travel inside an event is stored first and the event carries its claim check (invariant 6, docs/invariants.md).
 */
export async function queueJob(
  ctx: SubmitContext,
  request: ConvertRequest,
  meta: {
    key: Pick<ApiKey, 'id' | 'plan' | 'documentLimit'>;
    requestId: string;
    jobId?: string;
    rerunOf?: string;
    /** When the caller stops waiting (a sync call's ceiling): a write of unknown outcome is not retried past it. */
    answerBy?: number;
  },
): Promise<JobQueued> {
  const jobId = meta.jobId ?? newJobId();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ctx.jobTtlSeconds * 1000).toISOString();
  const reservation = await reserveDocument(ctx.sql, meta.key, jobId, expiresAt);
  if (!reservation.ok) {
    httpMetrics().quotaRefused.inc({ code: reservation.reason, plan: meta.key.plan });
    throw refusal(reservation, ctx.upgradeUrl);
  }
  try {
    // The request's span names its job, so the trace can be found by the job id.
    trace.getActiveSpan()?.setAttribute('folio.job_id', jobId);
    const queued = await publishJob(ctx, request, { ...meta, jobId, now, expiresAt });
    jobMetrics().accepted.inc({ output: request.output, mode: request.async ? 'async' : 'sync', plan: meta.key.plan });
    return queued;
  } catch (error) {
    if (reservation.reserved) await releaseUnlessQueued(ctx.sql, jobId, error, () => releaseReservation(ctx.sql, jobId));
    throw error;
  }
}

async function publishJob(
  ctx: SubmitContext,
  request: ConvertRequest,
  meta: { key: Pick<ApiKey, 'id'>; requestId: string; jobId: string; now: Date; expiresAt: string; rerunOf?: string; answerBy?: number },
): Promise<JobQueued> {
  const { jobId, now } = meta;
  const carried = await claimCheck(ctx.store, `inputs/${jobId}`, request.input.text, contentTypeOf(request.input.kind), ctx.claimCheckBytes);
  const input: JobInput = { kind: request.input.kind, ...carried };
  const event = jobQueued(
    {
      job_id: jobId,
      request_id: meta.requestId,
      key_id: meta.key.id,
      lane: request.async ? 'async' : 'sync',
      output: request.output,
      input,
      options: request.options,
      webhook_url: request.webhookUrl,
      expires_at: meta.expiresAt,
      rerun_of: meta.rerunOf ?? null,
    },
    now,
  );
  await publishUntilKnown(() => ctx.publisher.publish(event), meta.answerBy);
  return event;
}

function contentTypeOf(kind: JobInput['kind']): string {
  return kind === 'html' ? 'text/html; charset=utf-8' : kind === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/plain';
}

function refusal(reservation: Extract<Reservation, { ok: false }>, upgradeUrl: string): ApiError {
  if (reservation.reason === 'limit_exceeded') {
    return new ApiError('limit_exceeded', `this API key has reached the limit of ${reservation.limit} documents set on it`);
  }
  return new ApiError('quota_exceeded', `this key's free plan includes ${reservation.included} documents a month, and they are used; upgrade to convert more`, {
    upgradeUrl,
  });
}
