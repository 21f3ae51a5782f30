import type { paths } from './generated/schema.ts';
import type { Transport } from './transport.ts';
import type { ConvertJobAccepted, JobHistoryEntry, Job, UsageLedgerEntry, UsageLedgerPage, WebhookRedeliveryAccepted } from './types.ts';

/** One page of a listing: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * A listing of the API (a job's events, the key's jobs, the usage ledger): `for await` over it yields every item of
 * every page, fetching each page when the one before is used up; `page(cursor)` reads one page. Each page is one
 * GET, retried like any read.
 */
export class Paged<T, P extends Page<T> = Page<T>> implements AsyncIterable<T> {
  private readonly read: (cursor: string | undefined) => Promise<P>;
  constructor(read: (cursor: string | undefined) => Promise<P>) {
    this.read = read;
  }

  /** One page: the first when no cursor is given, else the page after the one whose `next_cursor` this is. */
  page(cursor?: string): Promise<P> {
    return this.read(cursor);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor: string | undefined;
    do {
      const page = await this.read(cursor);
      yield* page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
}

type ListJobsQuery = NonNullable<paths['/v2/jobs']['get']['parameters']['query']>;
/** Filters of `jobs.list`: status, output, created_after/created_before (ISO 8601), and the page size. */
export type ListJobsParams = Omit<ListJobsQuery, 'cursor'>;
export type UsageListParams = Omit<NonNullable<paths['/v2/usage']['get']['parameters']['query']>, 'cursor'>;

export interface ReadOptions {
  signal?: AbortSignal;
}

/** The endpoints beyond the interface on a key's jobs; `Jobs` exposes them as its own methods. */
export class JobHistory {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  events(id: string, params: { limit?: number } = {}, options: ReadOptions = {}): Paged<JobHistoryEntry> {
    return new Paged(async (cursor) => {
      const query = { ...params, ...(cursor ? { cursor } : {}) };
      const call = (signal: AbortSignal) => this.transport.client.GET('/v2/jobs/{id}/events', { params: { path: { id }, query }, signal });
      return (await this.transport.call(call, options.signal)).data;
    });
  }

  list(params: ListJobsParams = {}, options: ReadOptions = {}): Paged<Job> {
    return new Paged(async (cursor) => {
      const query = { ...params, ...(cursor ? { cursor } : {}) };
      return (await this.transport.call((signal) => this.transport.client.GET('/v2/jobs', { params: { query }, signal }), options.signal)).data;
    });
  }

  /**
   * Starts the job again as a new background job. Retried only when the API refused it for its rate (429): any
   * other failure may have started the rerun already, and a second one would be a second document.
   */
  async rerun(id: string, options: ReadOptions = {}): Promise<ConvertJobAccepted> {
    const call = (signal: AbortSignal) => this.transport.client.POST('/v2/jobs/{id}/rerun', { params: { path: { id } }, signal });
    return (await this.transport.call(call, options.signal, (error) => error.status === 429)).data;
  }

  /** Has the job's callback sent once more (a finished job with a webhook_url whose attempts have ended). */
  async redeliverWebhook(id: string, options: ReadOptions = {}): Promise<WebhookRedeliveryAccepted> {
    const call = (signal: AbortSignal) => this.transport.client.POST('/v2/jobs/{id}/webhook/redeliver', { params: { path: { id } }, signal });
    return (await this.transport.call(call, options.signal, (error) => error.status === 429)).data;
  }
}

/** GET /v2/usage: the documents that counted, by month. */
export class UsageLedger {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** The documents counted in `period` (YYYY-MM, UTC; the current month when left out), oldest first. */
  list(params: UsageListParams = {}, options: ReadOptions = {}): Paged<UsageLedgerEntry, UsageLedgerPage> {
    return new Paged(async (cursor) => {
      const query = { ...params, ...(cursor ? { cursor } : {}) };
      return (await this.transport.call((signal) => this.transport.client.GET('/v2/usage', { params: { query }, signal }), options.signal)).data;
    });
  }
}
