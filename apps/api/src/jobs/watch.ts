import type { Sql } from '@folio/db';
import { isFinal, JOB_CHANNEL, type JobStatus } from '@folio/projections';
import type { Logger } from '@folio/logging';

type Waiter = { final: boolean; resolve: (status: string | null) => void };

/**
 * Waits for the projector to report a job's state, without polling: one LISTEN connection per API process, the
 * projector NOTIFYs in the transaction that changes a job, and waiters are woken by job id. After the listening
 * connection is (re)established every waiter re-reads its job once, so a notification missed while disconnected
 * costs a moment, not a request.
 */
export class JobWatch {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly listeners = new Set<(jobId: string | null) => void>();
  /** Whether notifications have been arriving: set once the LISTEN is established. */
  listening = false;

  private readonly sql: Sql;
  private readonly logger: Logger;
  constructor(
    sql: Sql,
    logger: Logger,
  ) {
    this.sql = sql;
    this.logger = logger;
  }

  async start(): Promise<void> {
    const { unlisten } = await this.sql.listen(
      JOB_CHANNEL,
      (payload) => {
        const [jobId, status] = payload.split(':');
        if (jobId && status) {
          this.wake(jobId, status);
          for (const listener of this.listeners) listener(jobId);
        }
      },
      () => {
        this.listening = true;
        for (const listener of this.listeners) listener(null);
        void this.recheckAll();
      },
    );
    this.unlisten = unlisten;
  }

  async stop(): Promise<void> {
    this.listening = false;
    for (const [, set] of this.waiters) for (const w of set) w.resolve(null);
    this.waiters.clear();
    await this.unlisten?.();
  }

  /**
   * Calls `listener` with the id of every job whose state changes, and with null whenever the listening connection
   * is (re)established: then changes may have been missed.
   */
  onChange(listener: (jobId: string | null) => void): void {
    this.listeners.add(listener);
  }

  /** Resolves with the job's final status, or null when `ms` pass first. Register before publishing the job. */
  waitForFinal(jobId: string, ms: number): { promise: Promise<string | null>; cancel(): void } {
    return this.wait(jobId, ms, true);
  }

  /** Resolves with the final status of a job queued earlier (perhaps final already), or null when `ms` pass first. */
  async waitForFinalOf(jobId: string, ms: number): Promise<string | null> {
    const waiting = this.wait(jobId, ms, true);
    const status = await this.currentStatus(jobId);
    if (status && isFinal(status as JobStatus)) {
      waiting.cancel();
      return status;
    }
    return waiting.promise;
  }

  /** Resolves when the job's row exists (its JobQueued is projected), or null when `ms` pass first. */
  async waitForRow(jobId: string, ms: number): Promise<boolean> {
    const waiting = this.wait(jobId, ms, false);
    const status = await this.currentStatus(jobId);
    if (status) {
      waiting.cancel();
      return true;
    }
    return (await waiting.promise) !== null;
  }

  private wait(jobId: string, ms: number, final: boolean): { promise: Promise<string | null>; cancel(): void } {
    let waiter!: Waiter;
    let timer: NodeJS.Timeout;
    const promise = new Promise<string | null>((resolve) => {
      waiter = {
        final,
        resolve: (status) => {
          clearTimeout(timer);
          this.remove(jobId, waiter);
          resolve(status);
        },
      };
      timer = setTimeout(() => waiter.resolve(null), ms);
    });
    const set = this.waiters.get(jobId) ?? new Set();
    set.add(waiter);
    this.waiters.set(jobId, set);
    return { promise, cancel: () => waiter.resolve(null) };
  }

  private wake(jobId: string, status: string): void {
    const set = this.waiters.get(jobId);
    if (!set) return;
    const final = isFinal(status as JobStatus);
    for (const waiter of [...set]) if (!waiter.final || final) waiter.resolve(status);
  }

  private remove(jobId: string, waiter: Waiter): void {
    const set = this.waiters.get(jobId);
    set?.delete(waiter);
    if (set?.size === 0) this.waiters.delete(jobId);
  }

  private async currentStatus(jobId: string): Promise<string | null> {
    const [row] = await this.sql<{ status: string }[]>`select status from jobs where job_id = ${jobId} and key_id is not null`;
    return row?.status ?? null;
  }

  private async recheckAll(): Promise<void> {
    for (const jobId of [...this.waiters.keys()]) {
      try {
        const status = await this.currentStatus(jobId);
        if (status) this.wake(jobId, status);
      } catch (error) {
        this.logger.warn({ err: error, job_id: jobId }, 'job recheck failed');
      }
    }
  }
}
