import { httpMetrics } from '@folio/metrics';
import { jobFailed, newJobId, renderTimeoutError } from '@folio/events';
import { loadJob, type ViewedJob } from '@folio/job-view';
import type { ApiKey } from '@folio/keys';
import { ApiError } from '../errors.ts';
import type { ConvertRequest } from './convert-request.ts';
import { queueJob, type SubmitContext } from './submit.ts';
import type { JobWatch } from './watch.ts';
import type { SyncLane } from './sync-lane.ts';

export interface ConvertNowContext {
  submit: SubmitContext;
  watch: JobWatch;
  syncTimeoutMs: number;
  /** The sync lane's backlog, to refuse at once a call the renderers cannot reach within the ceiling. */
  syncLane: Pick<SyncLane, 'admit'>;
}

/** How long the API waits, after recording a timeout, to learn which terminal event the log kept. */
const SETTLE_MS = 5000;

/**
 * A synchronous conversion: a job like any other (so it is in the log, the history and the meter), whose caller waits
 * for its final state up to the synchronous ceiling. Shared by /v2/convert and the legacy endpoints. Returns the
 * final job row; a job still unfinished at the ceiling is recorded as render_timeout and answered as such, unless the
 * renderer's success reached the log first (the first terminal event wins, invariant 2 in docs/invariants.md). A call
 * the sync lane's backlog would keep past the ceiling is refused before anything is queued or counted (rate_limited,
 * with Retry-After): its caller learns at once, and the renderers are not handed work nobody will wait for.
 */
export async function convertNow(
  ctx: ConvertNowContext,
  convert: ConvertRequest,
  meta: { key: Pick<ApiKey, 'id' | 'plan' | 'documentLimit'>; requestId: string; jobId?: string },
): Promise<ViewedJob> {
  const admission = ctx.syncLane.admit();
  if (!admission.accepted) {
    httpMetrics().rateLimited.inc({ limit: 'sync_backlog', plan: meta.key.plan });
    const wait = Number.isFinite(admission.waitMs) ? `about ${Math.ceil(admission.waitMs / 1000)} s` : 'until the renderers move again';
    throw new ApiError('rate_limited', `the renderers' backlog would keep this call waiting ${wait}, past the ${ctx.syncTimeoutMs / 1000} s ceiling; try again in ${admission.retryAfterSeconds} s, or send it async`, {
      retryAfterSeconds: admission.retryAfterSeconds,
    });
  }
  // Register the wait before the job can possibly finish, then queue it.
  const jobId = meta.jobId ?? newJobId();
  const waiting = ctx.watch.waitForFinal(jobId, ctx.syncTimeoutMs);
  try {
    await queueJob(ctx.submit, convert, { ...meta, jobId, answerBy: Date.now() + ctx.syncTimeoutMs });
  } catch (error) {
    waiting.cancel();
    throw error;
  }
  return settleSync(ctx, jobId, meta.key.id, await waiting.promise);
}

/**
 * A synchronous request that repeats an earlier one (same Idempotency-Key and parameters): it gets that job's outcome,
 * waiting for it as the first request did if it is still running.
 */
export async function awaitConversion(ctx: ConvertNowContext, jobId: string, keyId: string): Promise<ViewedJob> {
  return settleSync(ctx, jobId, keyId, await ctx.watch.waitForFinalOf(jobId, ctx.syncTimeoutMs));
}

async function settleSync(ctx: ConvertNowContext, jobId: string, keyId: string, finalStatus: string | null): Promise<ViewedJob> {
  let status = finalStatus;
  if (status === null) {
    const settled = ctx.watch.waitForFinal(jobId, SETTLE_MS);
    const timeout = renderTimeoutError(ctx.syncTimeoutMs);
    await ctx.submit.publisher.publish(jobFailed(jobId, null, 'api', timeout));
    status = await settled.promise;
    if (status === null) throw new ApiError('render_timeout', timeout.message);
  }
  const row = await loadJob(ctx.submit.sql, jobId, keyId);
  if (!row) throw new ApiError('render_failed', 'the job finished but could not be read back');
  return row;
}
