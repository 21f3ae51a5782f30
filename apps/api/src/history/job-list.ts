import type { Sql } from '@folio/db';
import { jobJson, jobResource, VIEWED_JOB, type ViewContext, type ViewedJob } from '@folio/job-view';
import type { Plan } from '@folio/keys';
import type { JobStatus } from '@folio/projections';
import { isJobId } from '@folio/events';
import { decodeCursor, isInstant, pageOf } from './pages.ts';

export interface JobFilter {
  status?: JobStatus;
  output?: string;
  /** ISO 8601 instants: jobs created at or after `createdAfter`, and strictly before `createdBefore`. */
  createdAfter?: string;
  createdBefore?: string;
}

type JobKey = [createdAt: string, jobId: string];

/** Renders a page's jobs this many at a time (a result can be a stored object to read back). */
const RENDERING = 8;

/**
 * A page of the key's readable jobs (GET /v2/jobs), newest first, as JSON text: each job is the very bytes
 * GET /v2/jobs/{id} sends for it (the one serializer, `jobJson`), so a listing and a poll can never disagree.
 */
export async function jobListPage(
  view: ViewContext,
  key: { id: string; plan: Plan },
  filter: JobFilter,
  page: { limit: number; cursor?: string },
): Promise<{ json: string }> {
  const before = decodeCursor<JobKey>(page.cursor, [isInstant, isJobId] as never);
  const rows = await selectJobs(view.sql, key.id, filter, before, page.limit + 1);
  const { items, nextCursor } = pageOf(rows, page.limit, (r) => [new Date(r.created_at!).toISOString(), r.job_id]);
  const jobs: string[] = [];
  for (let i = 0; i < items.length; i += RENDERING) {
    const chunk = await Promise.all(items.slice(i, i + RENDERING).map(async (row) => jobJson(await jobResource(view, row, key.plan))));
    jobs.push(...chunk);
  }
  return { json: `{"data":[${jobs.join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}` };
}

function selectJobs(sql: Sql, keyId: string, filter: JobFilter, before: JobKey | null, limit: number): Promise<ViewedJob[]> {
  const conditions = [
    sql`key_id = ${keyId}`,
    sql`expires_at > now()`,
    filter.status ? sql`status = ${filter.status}` : null,
    filter.output ? sql`output = ${filter.output}` : null,
    filter.createdAfter ? sql`created_at >= ${filter.createdAfter}::timestamptz` : null,
    filter.createdBefore ? sql`created_at < ${filter.createdBefore}::timestamptz` : null,
    before ? sql`(created_at, job_id) < (${before[0]}::timestamptz, ${before[1]}::uuid)` : null,
  ].filter((c) => c !== null);
  const where = conditions.reduce((all, c) => sql`${all} and ${c}`);
  return sql<ViewedJob[]>`
    select ${sql.unsafe(VIEWED_JOB)} from jobs where ${where}
    order by created_at desc nulls last, job_id desc nulls last
    limit ${limit}`;
}
