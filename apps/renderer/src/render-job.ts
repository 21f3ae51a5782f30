import { ConversionError, print, type ConversionPool } from '@folio/conversion';
import type { PdfRenderer } from '@folio/pdf';
import type { Sql } from '@folio/db';
import {
  jobError,
  jobFailed,
  renderTimeoutError,
  jobProcessing,
  jobSucceeded,
  type JobError,
  type JobEvent,
  type JobQueued,
  type JobResult,
  type JobSucceeded,
} from '@folio/events';
import { ConsumerStoppedError, retryTransient, type EventPublisher, type RetryContext } from '@folio/event-log';
import type { Faults } from '@folio/config';
import type { Logger } from '@folio/logging';
import { claimCheck, redeem, type BlobStore } from '@folio/storage';
import { countIsolatedRun, startAttempt, uncountRun } from './attempts.ts';
import type { Slot } from './slots.ts';

export interface RenderContext {
  /** The CPU-bound part of conversions runs in worker threads; the browser stays in this thread. */
  engine: { pool: ConversionPool; pdf: PdfRenderer };
  publisher: EventPublisher;
  store: BlobStore;
  /** Where starts of jobs are counted (`render_attempts`) and finished jobs are recognised. */
  sql: Sql;
  worker: string;
  attempts: number;
  claimCheckBytes: number;
  syncTimeoutMs: number;
  faults: Faults;
  logger: Logger;
}

/**
 * How long a conversion runs before its JobProcessing is written on its own. A quicker one writes JobProcessing and
 * its terminal event in one request (still in that order, in one partition), which spares a synchronous caller a
 * round trip to the broker; nobody could have seen a job "processing" for less than this anyway.
 */
export const ANNOUNCE_AFTER_MS = 100;

/**
 * Runs one queued job to its terminal event: JobProcessing for each attempt, then JobSucceeded or JobFailed.
 * It resolves only once the terminal event is durably in the log; the caller commits the JobQueued offset after
 * that, so a crash at any point before redelivers the job. Every start is counted durably first (`render_attempts`),
 * across renderer processes: a job that fails unexpectedly, or that takes its renderer down, fails with
 * render_failed once it has been started `attempts` times, so a poison job never blocks its partition or cycles
 * through the renderer fleet. While the broker or Postgres is away, it waits (`waiting`) instead of failing the job.
 */
export async function renderJob(ctx: RenderContext, job: JobQueued, waiting: RetryContext, slot: Slot): Promise<void> {
  const log = ctx.logger.child({ job_id: job.job_id, request_id: job.request_id });
  const record = (...events: JobEvent[]) => retryTransient(() => ctx.publisher.publish(...events), waiting);

  if (job.lane === 'sync' && Date.now() - Date.parse(job.occurred_at) > ctx.syncTimeoutMs) {
    // The caller has been answered render_timeout already; converting now would only be thrown away.
    log.info('sync job older than the sync ceiling: not converted');
    await record(jobFailed(job.job_id, null, ctx.worker, renderTimeoutError(ctx.syncTimeoutMs)));
    return;
  }

  for (;;) {
    const start = await retryTransient(() => startAttempt(ctx.sql, job.job_id, ctx.worker), waiting);
    const { attempt } = start;
    if (start.settled) {
      log.info({ attempt }, 'job is final already: not converted again');
      return;
    }
    let counted = start.counted;
    if (start.isolate) {
      // An earlier run never finished: this one runs alone, so a renderer that dies now died of this job.
      await slot.isolate();
      counted = await retryTransient(() => countIsolatedRun(ctx.sql, job.job_id), waiting);
      if (counted > ctx.attempts) {
        log.error({ attempt, counted }, 'job took its renderer down on every run: failed');
        await record(
          jobFailed(job.job_id, null, ctx.worker, {
            code: 'render_failed',
            message: `conversion was run ${counted - 1} times and never finished (its renderer stopped each time)`,
            retryable: true,
          }),
        );
        return;
      }
    }
    try {
      if (await runAttempt(ctx, job, attempt, counted, record, log)) return;
    } catch (error) {
      // The consumer stopped while the outcome waited for the broker: the job goes to the next reader, and this run
      // was no fault of the job's.
      if (error instanceof ConsumerStoppedError) await uncountRun(ctx.sql, job.job_id).catch(() => {});
      throw error;
    }
    await new Promise((r) => setTimeout(r, 100 * 2 ** counted));
  }
}

/** One run of a job; true once its outcome is in the log, false when it failed unexpectedly and may run again. */
async function runAttempt(
  ctx: RenderContext,
  job: JobQueued,
  attempt: number,
  counted: number,
  record: (...events: JobEvent[]) => Promise<void>,
  log: Logger,
): Promise<boolean> {
  const processing = jobProcessing(job.job_id, attempt, ctx.worker);
  let announced: Promise<void> | null = null;
  const announce = () => (announced ??= record(processing));
  // A retry is announced before it starts, so the history shows every start even if this one dies too.
  if (attempt > 1) await announce();
  const timer = setTimeout(() => void announce().catch(() => {}), ANNOUNCE_AFTER_MS);
  const started = performance.now();
  const outcome = await produce(ctx, job).then(
    (result) => ({ result, error: null }),
    (error: unknown) => ({ result: null, error }),
  );
  clearTimeout(timer);
  // The attempt's JobProcessing, if not written yet, goes first in the same request as what follows it.
  const pending = announced ? (await announced, []) : [processing];
  const ms = performance.now() - started;

  if (outcome.result) {
    await recordSuccess(ctx, record, pending, jobSucceeded(job.job_id, attempt, ctx.worker, outcome.result, ms), log);
    log.info({ attempt, ms: Math.round(ms), output: job.output }, 'job succeeded');
    return true;
  }
  const { error } = outcome;
  if (error instanceof ConversionError && error.code !== 'render_failed') {
    await record(...pending, jobFailed(job.job_id, attempt, ctx.worker, errorOf(error)));
    log.info({ attempt, code: error.code }, 'job failed');
    return true;
  }
  log.warn({ err: error, attempt, counted }, 'conversion attempt failed');
  if (counted >= ctx.attempts) {
    await record(
      ...pending,
      jobFailed(job.job_id, attempt, ctx.worker, {
        code: 'render_failed',
        message: `conversion failed on the service's side after ${counted} attempts`,
        retryable: true,
      }),
    );
    return true;
  }
  if (pending.length > 0) await record(...pending);
  return false;
}

/**
 * Writes a success. A result the log cannot take (an event over the size limit, a value its schema refuses) would
 * fail the same way on every retry: the job fails with render_failed instead, so it never stays processing.
 */
async function recordSuccess(
  ctx: RenderContext,
  record: (...events: JobEvent[]) => Promise<void>,
  pending: JobEvent[],
  success: JobSucceeded,
  log: Logger,
): Promise<void> {
  try {
    await record(...pending, success);
  } catch (error) {
    if (error instanceof ConsumerStoppedError) throw error;
    log.error({ err: error }, 'the result could not be written to the log: the job fails instead');
    await record(
      ...pending,
      jobFailed(success.job_id, success.attempt, ctx.worker, {
        code: 'render_failed',
        message: 'the conversion finished but its result could not be recorded',
        retryable: true,
      }),
    );
  }
}

async function produce(ctx: RenderContext, job: JobQueued): Promise<JobResult> {
  const text = (await redeem(ctx.store, job.input))!;
  if (ctx.faults.renderDelayMs > 0) await new Promise((r) => setTimeout(r, ctx.faults.renderDelayMs));
  if (ctx.faults.throwOnMarker && text.includes(ctx.faults.throwOnMarker)) throw new Error('injected fault: poison input');
  if (ctx.faults.crashOnMarker && text.includes(ctx.faults.crashOnMarker)) process.kill(process.pid, 'SIGKILL');
  const prepared = await ctx.engine.pool.prepare({ input: { kind: job.input.kind, text }, output: job.output, options: job.options });
  const conversion = prepared.kind === 'print' ? await print(prepared, ctx.engine.pdf) : prepared;
  const result: JobResult = { output: conversion.output, content: null, content_ref: null, file: null, document: conversion.document };
  if (conversion.kind === 'file') {
    // Stored under a key made from the job id: a retried or redelivered job overwrites its own file, nothing else.
    const stored = await ctx.store.put(`files/${job.job_id}.${conversion.output}`, conversion.bytes, conversion.contentType);
    result.file = { key: stored.key, size_bytes: stored.size, content_type: stored.content_type, stored_at: new Date().toISOString() };
  } else {
    const carried = await claimCheck(ctx.store, `results/${job.job_id}/content`, conversion.content, contentTypeOf(conversion.output), ctx.claimCheckBytes);
    result.content = carried.text;
    result.content_ref = carried.ref;
  }
  return result;
}

function contentTypeOf(output: 'html' | 'text' | 'markdown' | 'json'): string {
  return output === 'html' ? 'text/html; charset=utf-8' : output === 'json' ? 'application/json' : 'text/plain; charset=utf-8';
}

function errorOf(error: ConversionError): JobError {
  return jobError(error.code, error.message);
}

