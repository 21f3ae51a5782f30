import type { FinishedJob, Folio, Job } from '@folio/sdk';
import { showProgress } from './progress.ts';

/**
 * Waits for a job with its progress on stderr. A failed job is reported on stderr and sets exit code 1 (its JSON is
 * the caller's to print); an interrupted wait says how to pick the job up again, since the job itself goes on.
 * `accepted` is the state the caller already knows (a job just queued): shown at once, since a fast job can finish
 * before the first poll and the user should still see that it was queued.
 */
export async function waitShowingProgress(folio: Folio, jobId: string, signal: AbortSignal, accepted?: Pick<Job, 'job_id' | 'status'>): Promise<FinishedJob> {
  const progress = showProgress();
  if (accepted) progress.update(accepted);
  try {
    const job = await folio.jobs.wait(jobId, { signal, onPoll: (polled) => progress.update(polled) });
    progress.done();
    if (job.status === 'failed') {
      process.stderr.write(`folio: the job failed: ${job.error.code}: ${job.error.message}${job.error.retryable ? ' (retryable)' : ''}\n`);
      process.exitCode = 1;
    }
    return job;
  } catch (error) {
    progress.done();
    if (signal.aborted) process.stderr.write(`folio: stopped waiting; the job goes on: folio jobs wait ${jobId}\n`);
    throw error;
  }
}
