import { isErrorCode } from '@folio/events';
import { jobMetrics } from './catalogue.ts';

/** A job as the read model has it when it ends (the fields of the projector's row these metrics read). */
export interface EndedJob {
  status: string;
  output: string | null;
  lane: string | null;
  key_id: string | null;
  error: { code: string } | null;
  created_at: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface JobObservation {
  finished: { outcome: string; output: string; lane: string; code: string };
  /** Seconds from acceptance to its first start; absent for a job that never started. */
  queuedSeconds?: number;
  renderingSeconds?: number;
  /** The meter counted it: a success of a known key. */
  counted: boolean;
}

const seconds = (from: string | null, to: string | null): number | undefined =>
  from !== null && to !== null ? Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000) : undefined;

/**
 * What the metrics take from jobs that just ended. An error code outside the interface's table is `other`, so that a
 * label never takes an unbounded value. Pure, for its tests.
 */
export function jobObservations(jobs: EndedJob[]): JobObservation[] {
  return jobs.map((job) => ({
    finished: {
      outcome: job.status,
      output: job.output ?? 'unknown',
      lane: job.lane ?? 'unknown',
      code: job.error === null ? '' : isErrorCode(job.error.code) ? job.error.code : 'other',
    },
    queuedSeconds: seconds(job.created_at, job.started_at),
    renderingSeconds: seconds(job.started_at, job.finished_at),
    counted: job.status === 'succeeded' && job.key_id !== null,
  }));
}

/** Counts jobs that reached their final state: by outcome, their time queued and rendering, the meter's documents. */
export function observeEndedJobs(jobs: EndedJob[]): void {
  if (jobs.length === 0) return;
  const metrics = jobMetrics();
  for (const seen of jobObservations(jobs)) {
    metrics.finished.inc(seen.finished);
    if (seen.queuedSeconds !== undefined) metrics.queued.observe({ lane: seen.finished.lane }, seen.queuedSeconds);
    if (seen.renderingSeconds !== undefined) metrics.rendering.observe({ output: seen.finished.output, outcome: seen.finished.outcome }, seen.renderingSeconds);
    if (seen.counted) metrics.counted.inc();
  }
}
