import { FolioError } from './errors.ts';
import { parseRetryAfter, sleep } from './retry.ts';
import type { Transport } from './transport.ts';
import { JobHistory, type ListJobsParams, type Paged, type ReadOptions } from './history.ts';
import type { ConvertJobAccepted, FinishedJob, Job, JobHistoryEntry, WebhookRedeliveryAccepted } from './types.ts';

export interface WaitOptions {
  /** Stops waiting: wait() rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Gives up after this long with FolioError `timeout` (the job itself goes on). Default: no limit. */
  timeoutMs?: number;
  /** Called with the job as each poll found it, the finished one included (to show progress). */
  onPoll?: (job: Job) => void;
}

/** When an unfinished job's answer carries no Retry-After (the API always sends one; a proxy may drop it). */
const DEFAULT_POLL_MS = 1_000;
/** A Retry-After of 0 would poll in a tight loop and spend the key's poll budget (120 a minute on a free key). */
const MIN_POLL_MS = 200;

export function isFinished(job: Job): job is FinishedJob {
  return job.status === 'succeeded' || job.status === 'failed';
}

/** GET /v2/jobs/{id}, once or until the job is finished; and beyond the interface, the key's jobs and their histories. */
export class Jobs {
  private readonly history: JobHistory;

  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
    this.history = new JobHistory(transport);
  }

  /** The job's history from Folio's log, oldest first: `for await (const entry of folio.jobs.events(id))`. */
  events(id: string, params: { limit?: number } = {}, options: ReadOptions = {}): Paged<JobHistoryEntry> {
    return this.history.events(id, params, options);
  }

  /** The key's readable jobs, newest first, filtered: `for await (const job of folio.jobs.list({ status: 'failed' }))`. */
  list(params: ListJobsParams = {}, options: ReadOptions = {}): Paged<Job> {
    return this.history.list(params, options);
  }

  /** Runs the job again as a new background job with the same request; read it with `jobs.wait(job_id)`. */
  rerun(id: string, options: ReadOptions = {}): Promise<ConvertJobAccepted> {
    return this.history.rerun(id, options);
  }

  /** Sends a finished job's callback once more. */
  redeliverWebhook(id: string, options: ReadOptions = {}): Promise<WebhookRedeliveryAccepted> {
    return this.history.redeliverWebhook(id, options);
  }

  /** The job as it is now. A job of another key, an unknown id or one older than 48 hours: FolioError job_not_found. */
  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<Job> {
    return (await this.read(id, options.signal)).data;
  }

  /**
   * Polls until the job succeeded or failed and returns it (a failed job is returned, not thrown: its `error` is the
   * conversion's outcome, not the SDK's). Between polls it waits what the API's Retry-After says.
   */
  async wait(id: string, options: WaitOptions = {}): Promise<FinishedJob> {
    const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [options.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    try {
      for (;;) {
        const { data: job, response } = await this.read(id, signal);
        options.onPoll?.(job);
        if (isFinished(job)) return job;
        const delay = parseRetryAfter(response.headers.get('retry-after')) ?? DEFAULT_POLL_MS;
        await sleep(Math.max(MIN_POLL_MS, delay), signal);
      }
    } catch (error) {
      if (deadline?.aborted && !options.signal?.aborted) {
        throw new FolioError({ code: 'timeout', message: `job ${id} did not finish within ${options.timeoutMs} ms`, status: 0, retryable: true, cause: error });
      }
      throw error;
    }
  }

  private read(id: string, signal?: AbortSignal) {
    return this.transport.call((attemptSignal) => this.transport.client.GET('/v2/jobs/{id}', { params: { path: { id } }, signal: attemptSignal }), signal);
  }
}
