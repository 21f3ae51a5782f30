import { conversionMetrics } from '@folio/metrics';
import { epochMs, print, type ConversionPool, type ConversionRequest, type Prepared } from '@folio/conversion';
import type { PdfRenderer } from '@folio/pdf';
import type { Sql } from '@folio/db';
import { jobFailed, jobProcessing, jobSucceeded, type JobEvent, type JobQueued, type JobResult, type JobSucceeded, type Lane } from '@folio/events';
import { ConsumerStoppedError, retryTransient, type EventPublisher, type RetryContext } from '@folio/event-log';
import type { Faults } from '@folio/config';
import type { Logger } from '@folio/logging';
import { claimCheck, redeem, type BlobStore } from '@folio/storage';
import { countIsolatedRun, startAttempt, uncountRun, type AttemptStart } from './attempts.ts';
import { outcomeOf } from './outcome.ts';
import { context, contextOf, endSpan, inSpan, recordSpan, SpanKind, startSpan, tracing, type Context, type Span, type TraceHeaders } from '@folio/tracing';
import type { Slot } from './slots.ts';
import type { FinishedJobs } from './finished-jobs.ts';

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
  /** Jobs this process brought to their end: a second copy of one is not converted again. */
  finished: FinishedJobs;
}

/**
 * How long a conversion runs before its JobProcessing is written on its own. A quicker one writes JobProcessing and
 * its terminal event in one request (still in that order, in one partition): one produce request, one fetch and one
 * transaction of the projector fewer. The event is made when the run starts, so the history says when it started
 * all the same. An async job's poller should see it "processing" once that is worth saying (nobody could have seen
 * it for less than 100 ms); a sync job's caller is waiting for the answer, not polling, and a pdf takes a few hundred
 * milliseconds: a sync run says it is processing once it has lasted a second, or a tenth of the sync ceiling when
 * that is shorter, so that the announcement is in the log before the caller's timeout could be.
 */
export function announceAfterMs(lane: Lane, syncTimeoutMs: number): number {
  return lane === 'async' ? 100 : Math.min(1000, syncTimeoutMs / 10);
}

/** One run of a job: its counted start. */
export interface Run {
  job: JobQueued;
  attempt: number;
  counted: number;
  /** The job's trace context, from its JobQueued's headers (none when tracing is off). */
  trace?: TraceHeaders;
}

/**
 * Runs one queued job to its terminal event: JobProcessing for each attempt, then JobSucceeded or JobFailed.
 * It resolves only once the terminal event is durably in the log; the caller commits the JobQueued offset after
 * that, so a crash at any point before redelivers the job. Every start is counted durably first (`render_attempts`),
 * across renderer processes: a job that fails unexpectedly, or that takes its renderer down, fails with
 * render_failed once it has been started `attempts` times, so a poison job never blocks its partition or cycles
 * through the renderer fleet. While the broker or Postgres is away, it waits (`waiting`) instead of failing the job.
 * `started` is the job's start when the caller recorded it already (a batch records its jobs' starts together).
 */
export async function renderJob(ctx: RenderContext, job: JobQueued, waiting: RetryContext, slot: Slot, started?: AttemptStart, trace?: TraceHeaders): Promise<void> {
  const log = ctx.logger.child({ job_id: job.job_id, request_id: job.request_id });
  const record = (...events: JobEvent[]) => retryTransient(() => ctx.publisher.publish(...events), waiting);

  for (let first = started; ; first = undefined) {
    const start = first ?? (await retryTransient(() => startAttempt(ctx.sql, job.job_id, ctx.worker), waiting));
    const { attempt } = start;
    const final = () => {
      if (!isFinal(ctx, start, job)) return false;
      log.info({ attempt }, 'job is final already: not converted again');
      return true;
    };
    if (final()) return;
    let counted = start.counted;
    if (start.isolate) {
      // An earlier run never finished: this one runs alone, so a renderer that dies now died of this job. The earlier
      // run may have been this process's own, still under way (a second copy of the job's JobQueued): it has ended
      // once this one has the renderer to itself.
      await slot.isolate();
      if (final()) return;
      counted = await retryTransient(() => countIsolatedRun(ctx.sql, job.job_id, ctx.attempts), waiting);
      if (counted > ctx.attempts) {
        log.error({ attempt, counted }, 'job took its renderer down on every run: failed');
        await record(
          jobFailed(job.job_id, null, ctx.worker, {
            code: 'render_failed',
            message: `conversion was run ${counted - 1} times and never finished (its renderer stopped each time)`,
            retryable: true,
          }),
        );
        ctx.finished.add(job.job_id);
        return;
      }
    }
    const [done] = await runAttempts(ctx, [{ job, attempt, counted, trace }], waiting);
    if (done) return;
    await new Promise((r) => setTimeout(r, 100 * 2 ** counted));
  }
}

/**
 * Runs counted starts of several jobs together, as one chunk: their conversions go to one worker in one message
 * (`ConversionPool.prepareAll`), and their outcomes to the log together (the publisher writes calls made at once in
 * one request). For each run: true once its job's outcome is in the log, false when it failed unexpectedly and may
 * run again (`outcomeOf`). A consumer that stops while outcomes wait for the broker takes the runs back: the jobs go
 * to the next reader, and these runs were no fault of theirs.
 */
export async function runAttempts(ctx: RenderContext, runs: Run[], waiting: RetryContext, here = false): Promise<boolean[]> {
  const record = (...events: JobEvent[]) => retryTransient(() => ctx.publisher.publish(...events), waiting);
  const processing = runs.map((r) => jobProcessing(r.job.job_id, r.attempt, ctx.worker));
  // A span a run, under the request that queued its job; what the run writes to the log carries it on.
  const spans = runs.map((r) => runSpan(r));
  const announced: Array<Promise<void> | null> = runs.map(() => null);
  const announce = (i: number) => (announced[i] ??= record(processing[i]!));
  try {
    // A retry is announced before it starts, so the history shows every start even if this one dies too.
    await Promise.all(runs.map((r, i) => r.attempt > 1 && announce(i)));
    const timer = setTimeout(() => runs.forEach((_, i) => void announce(i).catch(() => {})), announceAfterMs(runs[0]!.job.lane, ctx.syncTimeoutMs));
    let outcomes: Array<{ result: JobResult | null; error: unknown | null; ms: number }>;
    try {
      outcomes = await convertAll(ctx, runs.map((r) => r.job), here, spans.map((s) => s?.context));
    } finally {
      clearTimeout(timer);
    }
    const done = await Promise.all(
      runs.map(async (run, i) => {
        // The attempt's JobProcessing, if not written yet, goes first in the same request as what follows it.
        const pending = announced[i] ? (await announced[i], []) : [processing[i]!];
        const span = spans[i];
        if (!span) return recordOutcome(ctx, run, outcomes[i]!, pending, record);
        const done = await context.with(span.context, () => recordOutcome(ctx, run, outcomes[i]!, pending, record));
        endSpan(span.span, outcomes[i]!.error ?? undefined);
        return done;
      }),
    );
    for (const [i, run] of runs.entries()) if (done[i]) ctx.finished.add(run.job.job_id);
    return done;
  } catch (error) {
    for (const span of spans) if (span) endSpan(span.span, error);
    if (error instanceof ConsumerStoppedError) await Promise.all(runs.map((r) => uncountRun(ctx.sql, r.job.job_id).catch(() => {})));
    throw error;
  }
}

/** Whether a job is known to have ended: by the read model when its start was recorded, or by this process. */
export function isFinal(ctx: Pick<RenderContext, 'finished'>, start: AttemptStart, job: JobQueued): boolean {
  return start.settled || ctx.finished.has(job.job_id);
}

/** The span of one run, when this process exports traces. */
function runSpan(run: Run): { span: Span; context: Context } | null {
  if (!tracing()) return null;
  return startSpan(`render ${run.job.output}`, {
    parent: contextOf(run.trace),
    kind: SpanKind.CONSUMER,
    attributes: { 'folio.job_id': run.job.job_id, 'folio.input': run.job.input.kind, 'folio.output': run.job.output, 'folio.lane': run.job.lane, 'folio.attempt': run.attempt },
  });
}

/** Writes what a run came to; true when that is its job's end. */
async function recordOutcome(
  ctx: RenderContext,
  { job, attempt, counted }: Run,
  { result, error, ms }: { result: JobResult | null; error: unknown | null; ms: number },
  pending: JobEvent[],
  record: (...events: JobEvent[]) => Promise<void>,
): Promise<boolean> {
  const log = ctx.logger.child({ job_id: job.job_id, request_id: job.request_id });
  const outcome = outcomeOf(result ? null : error, counted, ctx.attempts);
  conversionMetrics().duration.observe({ input: job.input.kind, output: job.output, outcome: outcome.kind }, ms / 1000);
  switch (outcome.kind) {
    case 'succeeded':
      await recordSuccess(ctx, record, pending, jobSucceeded(job.job_id, attempt, ctx.worker, result!, ms), log);
      log.info({ attempt, ms: Math.round(ms), output: job.output }, 'job succeeded');
      return true;
    case 'failed':
      if (outcome.error.code === 'render_failed') log.warn({ err: error, attempt, counted }, 'conversion attempt failed: no attempts left');
      await record(...pending, jobFailed(job.job_id, attempt, ctx.worker, outcome.error));
      log.info({ attempt, code: outcome.error.code }, 'job failed');
      return true;
    case 'again':
      log.warn({ err: error, attempt, counted }, 'conversion attempt failed');
      if (pending.length > 0) await record(...pending);
      return false;
  }
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

/**
 * Converts the jobs of a chunk: their inputs redeemed, prepared by one worker in one message, pdfs printed in the
 * warm browser, files and large results stored. Each job's result or error, with how long its conversion took.
 */
async function convertAll(
  ctx: RenderContext,
  jobs: JobQueued[],
  here: boolean,
  traces: Array<Context | undefined> = [],
): Promise<Array<{ result: JobResult | null; error: unknown | null; ms: number }>> {
  const settled = <T>(work: Promise<T>) => work.then((value) => ({ value, error: null }), (error: unknown) => ({ value: null, error }));
  const inputs = await Promise.all(jobs.map((job) => settled(redeemInput(ctx, job))));
  // A slow conversion, as a test injects it (never set in production): its time is the conversion's.
  const delayMs = ctx.faults.renderDelayMs;
  if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  const runnable = inputs.flatMap((input, i) => (input.error === null ? [{ i, request: input.value! }] : []));
  // A sync job's caller is waiting: it goes before async chunks waiting for a worker, and may take the one kept for it.
  const urgent = jobs[0]?.lane === 'sync';
  const preparing = here && runnable.length === 1 ? ctx.engine.pool.prepareHere(runnable[0]!.request).then((one) => [one]) : ctx.engine.pool.prepareAll(runnable.map((r) => r.request), { urgent });
  const prepared = await preparing.then(
    (replies) => replies,
    (error: unknown) => runnable.map((): Prepared => ({ ok: false, error, ms: 0, timeline: { start: epochMs(), fetched: null, end: epochMs() } })),
  );
  const byJob = new Map(runnable.map((r, n) => [r.i, prepared[n]!]));
  return Promise.all(
    jobs.map(async (job, i) => {
      const input = inputs[i]!;
      const reply = byJob.get(i);
      if (input.error !== null) return { result: null, error: input.error, ms: 0 };
      const trace = traces[i];
      if (trace) recordPreparing(trace, job, reply!);
      if (!reply!.ok) return { result: null, error: reply!.error, ms: delayMs + reply!.ms };
      // Its time in the worker, and then its own printing and storing (not its chunk's other jobs').
      const finishing = performance.now();
      const outcome = await settled(trace ? context.with(trace, () => finish(ctx, job, reply!.result)) : finish(ctx, job, reply!.result));
      return { result: outcome.value, error: outcome.error, ms: delayMs + reply!.ms + performance.now() - finishing };
    }),
  );
}

/**
 * The worker's part of a run as child spans, from the times it reported (the worker has no tracer of its own): the
 * page's fetch, for an address, and the conversion (extracting, sanitising, writing the output).
 */
function recordPreparing(trace: Context, job: JobQueued, reply: Prepared): void {
  const { start, fetched, end } = reply.timeline;
  if (fetched !== null) recordSpan('fetch page', trace, start, fetched, { 'folio.job_id': job.job_id });
  recordSpan(job.input.kind === 'url' ? 'extract' : 'convert', trace, fetched ?? start, end, { 'folio.job_id': job.job_id, 'folio.output': job.output });
}

/** A job's input as the engine takes it; the faults a test injects (never set in production) apply here. */
async function redeemInput(ctx: RenderContext, job: JobQueued): Promise<ConversionRequest> {
  const text = (await redeem(ctx.store, job.input))!;
  if (ctx.faults.throwOnMarker && text.includes(ctx.faults.throwOnMarker)) throw new Error('injected fault: poison input');
  if (ctx.faults.crashOnMarker && text.includes(ctx.faults.crashOnMarker)) process.kill(process.pid, 'SIGKILL');
  return { input: { kind: job.input.kind, text }, output: job.output, options: job.options };
}

/** What a prepared conversion becomes: printed if it is a pdf, stored if it is a file or too large to ride in an event. */
async function finish(ctx: RenderContext, job: JobQueued, prepared: Extract<Prepared, { ok: true }>['result']): Promise<JobResult> {
  const conversion = prepared.kind === 'print' ? await inSpan('print', { 'folio.job_id': job.job_id }, () => print(prepared, ctx.engine.pdf)) : prepared;
  const result: JobResult = { output: conversion.output, content: null, content_ref: null, file: null, document: conversion.document };
  if (conversion.kind === 'file') {
    // Stored under a key made from the job id: a retried or redelivered job overwrites its own file, nothing else.
    const stored = await inSpan('store file', { 'folio.job_id': job.job_id }, () => ctx.store.put(`files/${job.job_id}.${conversion.output}`, conversion.bytes, conversion.contentType));
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
