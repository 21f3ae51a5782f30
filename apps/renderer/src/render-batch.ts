import { jobFailed, renderTimeoutError, type JobQueued, type Lane } from '@folio/events';
import { retryTransient, type RetryContext } from '@folio/event-log';
import { startAttempts, type AttemptStart } from './attempts.ts';
import { isFinal, renderJob, runAttempts, type RenderContext, type Run } from './render-job.ts';
import type { RenderSlots } from './slots.ts';
import type { TraceHeaders } from '@folio/tracing';

/**
 * Quick jobs a chunk holds at most: a worker converts them one after another and answers them together, so the
 * messages a job costs fall by up to this much, while a job in the chunk waits at most for the others' few
 * milliseconds.
 */
export const CHUNK_JOBS = 8;

/**
 * Runs a batch of queued jobs (what one fetch brought) to their terminal events, resolving once every outcome is in
 * the log: the caller commits the batch's offsets after that. The batch's starts are recorded in one statement;
 * quick jobs go to the workers in chunks (`chunksOf`) and a chunk's outcomes to the log together; a job whose earlier
 * run never finished runs alone (`renderJob`), as does one that must run again. Each chunk holds a render slot, so
 * the renderer's concurrency and the sync lane's priority hold as they do for single jobs. `traces`: each job's trace
 * context, from its event's headers.
 */
export async function renderBatch(
  ctx: RenderContext,
  jobs: JobQueued[],
  lane: Lane,
  slots: RenderSlots,
  waiting: RetryContext,
  traces: ReadonlyMap<string, TraceHeaders> = new Map(),
): Promise<void> {
  // A job's JobQueued can be in the log twice (the API writes it again when its first write's outcome was unknown):
  // the copies share one start, so they must not run side by side. A copy in a later batch finds the job started.
  jobs = onePerJob(jobs);
  const isLate = (job: JobQueued) => job.lane === 'sync' && Date.now() - Date.parse(job.occurred_at) > ctx.syncTimeoutMs;
  // The caller of a sync job older than the ceiling has been answered render_timeout already: converting it now would
  // only be thrown away. Looked at again when a slot comes free: a backlog of sync jobs grows late while it waits.
  const dropLate = (late: JobQueued[]) => {
    if (late.length > 0) ctx.logger.info({ jobs: late.map((j) => j.job_id) }, 'sync jobs older than the sync ceiling: not converted');
    return late.map((job) => retryTransient(() => ctx.publisher.publish(jobFailed(job.job_id, null, ctx.worker, renderTimeoutError(ctx.syncTimeoutMs))), waiting));
  };
  const late = jobs.filter(isLate);
  const timely = jobs.filter((job) => !late.includes(job));
  const starts = await retryTransient(() => startAttempts(ctx.sql, timely.map((j) => j.job_id), ctx.worker), waiting);

  const runs: Run[] = [];
  const alone: Array<{ job: JobQueued; start: AttemptStart }> = [];
  for (const job of timely) {
    const start = starts.get(job.job_id)!;
    if (isFinal(ctx, start, job)) ctx.logger.info({ job_id: job.job_id, attempt: start.attempt }, 'job is final already: not converted again');
    else if (start.isolate) alone.push({ job, start });
    else runs.push({ job, attempt: start.attempt, counted: start.counted, trace: traces.get(job.job_id) });
  }

  await Promise.all([
    ...dropLate(late),
    ...chunksOf(runs, lane, slots.size).map(async ({ runs: waited, here }) => {
      const slot = await slots.acquire(lane);
      try {
        const chunk = waited.filter((run) => !isLate(run.job));
        await Promise.all(dropLate(waited.filter((run) => !chunk.includes(run)).map((run) => run.job)));
        if (chunk.length === 0) return;
        const done = await runAttempts(ctx, chunk, waiting, here);
        // A run that failed unexpectedly runs again, alone, counted afresh (`renderJob`).
        for (const [i, run] of chunk.entries()) if (!done[i]) await renderJob(ctx, run.job, waiting, slot, undefined, run.trace);
      } finally {
        slot.release();
      }
    }),
    ...alone.map(async ({ job, start }) => {
      const slot = await slots.acquire(lane);
      try {
        await renderJob(ctx, job, waiting, slot, start, traces.get(job.job_id));
      } finally {
        slot.release();
      }
    }),
  ]);
}

/** The first event of each job, in order. Pure. */
export function onePerJob(jobs: JobQueued[]): JobQueued[] {
  const seen = new Set<string>();
  return jobs.filter((job) => !seen.has(job.job_id) && seen.add(job.job_id));
}

/** Runs converted together, and whether in the renderer's own thread (`here`) rather than by a worker. */
export interface Chunk {
  runs: Run[];
  here: boolean;
}

/**
 * Groups runs into chunks for the workers. A quick job — its input inline (not claim-checked) and not a page to
 * fetch — takes a few milliseconds, and chunks of them spare the workers' messages; a backlog is spread over as many
 * chunks as there are slots before any chunk grows past `CHUNK_JOBS`. A page to fetch or a large input runs alone,
 * and so does every sync job: a synchronous caller waits for no one else's conversion. A quick sync job that needs
 * nothing from the network is converted in the renderer's own thread: the messages to and from a worker would cost its
 * caller as much as the conversion. Images need the network: a docx embeds them, and html and pdf show only those
 * whose bytes arrived (`settleImages`), which the workers fetch. Pure.
 */
export function chunksOf(runs: Run[], lane: Lane, slots: number): Chunk[] {
  const quick = lane === 'async' ? runs.filter(isQuick) : [];
  const chunks = runs.filter((r) => !quick.includes(r)).map((r) => ({ runs: [r], here: lane === 'sync' && isQuick(r) && !needsImages(r) }));
  const size = Math.min(CHUNK_JOBS, Math.max(1, Math.ceil(quick.length / Math.max(1, slots))));
  for (let i = 0; i < quick.length; i += size) chunks.push({ runs: quick.slice(i, i + size), here: false });
  return chunks;
}

function isQuick({ job }: Run): boolean {
  return job.input.kind !== 'url' && job.input.text !== null;
}

/** Whether the output shows the input's images, and the input may hold one (an `<img>`, or Markdown's `![`). */
function needsImages({ job }: Run): boolean {
  if (job.output === 'docx') return true;
  return (job.output === 'html' || job.output === 'pdf') && /<img\b|!\[/i.test(job.input.text ?? '');
}
