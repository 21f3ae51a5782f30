import { ConversionError } from '@folio/conversion';
import { jobError, type JobError } from '@folio/events';

/** What one run of a conversion means for its job. */
export type Outcome =
  /** The result is the job's: it succeeds. */
  | { kind: 'succeeded' }
  /** The job ends with this error. */
  | { kind: 'failed'; error: JobError }
  /** Something failed that another run may not meet (a worker died, a store hiccuped): run the job again. */
  | { kind: 'again' };

/**
 * Decides what a run's failure means for its job, from the error and how many runs have been counted. A conversion
 * error (the page cannot be had, the input is refused) is the job's answer; anything else is the service's fault and
 * is tried again until `attempts` runs are counted, then the job fails with render_failed (so a poison job never
 * holds its partition). Pure.
 */
export function outcomeOf(error: unknown | null, counted: number, attempts: number): Outcome {
  if (error === null) return { kind: 'succeeded' };
  if (error instanceof ConversionError && error.code !== 'render_failed') return { kind: 'failed', error: jobError(error.code, error.message) };
  if (counted < attempts) return { kind: 'again' };
  return {
    kind: 'failed',
    error: { code: 'render_failed', message: `conversion failed on the service's side after ${counted} attempts`, retryable: true },
  };
}
