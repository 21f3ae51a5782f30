import type { Sql } from '@folio/db';
import { jobError, type ArticleMeta, type JobError, type JobResult } from '@folio/events';
import { INCLUDED_DOCUMENTS, type Plan } from '@folio/keys';
import type { JobRow, JobStatus } from '@folio/projections';
import { redeem, type BlobStore } from '@folio/storage';

/**
 * The Job resource as users see it: what `GET /v2/jobs/{id}` returns, what a synchronous call answers with, and (byte
 * for byte, invariant 9, docs/invariants.md) the body of the completion callback. Everything here is derived from the
 * read model and the stored objects it points at, so two readings of a finished job give identical bytes.
 */
/**
 * Documents the key had used in the job's month when it succeeded, counting it: the number the meter gave the job when
 * its success was projected (`ViewedJob.ordinal`), so it reads the same today, tomorrow and after a rebuild.
 */
export interface Usage {
  used_this_period: number;
  included: number;
  plan: Plan;
}

export type ResultBody = Record<string, unknown> & { status: 'success'; usage: Usage };

export interface JobBody {
  status: JobStatus;
  job_id: string;
  created_at: string;
  finished_at?: string;
  result?: ResultBody;
  error?: JobError;
}

export interface ViewContext {
  sql: Sql;
  store: BlobStore;
}

/**
 * A job's row with its number in its key's month (`usage.ordinal`, null when it was not counted), read together: a
 * Job resource shows both, and a second round trip for the count was half of what answering a sync call after its
 * job ended cost.
 */
export type ViewedJob = JobRow & { ordinal: number | null };

/** The columns of a `ViewedJob`: a job row and its count, for any query over `jobs`. */
export const VIEWED_JOB = 'jobs.*, (select u.ordinal from usage u where u.job_id = jobs.job_id) as ordinal';

/** The job, if it exists, belongs to this key and is still readable. */
export async function loadJob(sql: Sql, jobId: string, keyId: string): Promise<ViewedJob | null> {
  const [row] = await sql<ViewedJob[]>`
    select ${sql.unsafe(VIEWED_JOB)} from jobs where job_id = ${jobId} and key_id = ${keyId} and expires_at > now()`;
  return row ?? null;
}

/** The Job resource (the API's `Job`) of a read-model row, as this key's plan sees it; `jobJson` turns it into text. */
export async function jobResource(ctx: ViewContext, row: ViewedJob, plan: Plan): Promise<JobBody> {
  const body: JobBody = { status: row.status, job_id: row.job_id, created_at: iso(row.created_at)! };
  if (row.finished_at) body.finished_at = iso(row.finished_at)!;
  if (row.status === 'succeeded' && row.result) body.result = await renderResult(ctx, row, row.result, plan);
  // retryable follows the interface's table, also for errors recorded before the table was enforced.
  if (row.status === 'failed' && row.error) body.error = jobError(row.error.code, row.error.message);
  return body;
}

/**
 * The one serializer of a Job: `GET /v2/jobs/{id}` sends these bytes, and the dispatcher posts them as the callback
 * body (invariant 9, docs/invariants.md). Nothing else may turn a JobBody into text.
 */
export function jobJson(body: JobBody): string {
  return JSON.stringify(body);
}

/** Exactly the body a synchronous call returns with 200. */
export async function renderResult(ctx: ViewContext, row: ViewedJob, result: JobResult, plan: Plan): Promise<ResultBody> {
  const usage: Usage = { used_this_period: row.ordinal ?? 0, included: INCLUDED_DOCUMENTS[plan], plan };
  const document = compact(result.document);
  const content = await redeem(ctx.store, { text: result.content, ref: result.content_ref });
  if (result.file) {
    const link = await ctx.store.link(result.file.key, new Date(result.file.stored_at));
    return {
      status: 'success',
      output: result.output,
      file_url: link.url,
      expires_at: link.expires_at,
      size_bytes: result.file.size_bytes,
      document,
      usage,
    };
  }
  if (result.output === 'json') {
    return { status: 'success', output: 'json', document: compact(JSON.parse(content ?? '{}')), usage };
  }
  return { status: 'success', output: result.output, content: content ?? '', document, usage };
}

/** Optional fields are left out rather than sent as null. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

function iso(value: string | Date | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export type { ArticleMeta };
