import { jobIdTime } from '@folio/events';
import { loadJob, type ViewContext, type ViewedJob } from '@folio/job-view';
import type { JobWatch } from './watch.ts';

/** A just-accepted job may not be projected yet; a read this soon after its creation waits for it briefly. */
const FRESH_JOB_MS = 10_000;
const FRESH_WAIT_MS = 2_000;

/**
 * The key's job by id, or null (unknown, another key's, expired). A job accepted less than 10 s ago (its UUIDv7 says
 * when) that the projector has not written yet is waited for, up to 2 s, so a client that reads a job, its events or
 * acts on it right after the 202 is not told job_not_found about a job it was just given.
 */
export async function findJob(view: ViewContext, watch: JobWatch, id: string, keyId: string): Promise<ViewedJob | null> {
  const row = await loadJob(view.sql, id, keyId);
  if (row) return row;
  const created = jobIdTime(id);
  if (!created || Date.now() - created.getTime() >= FRESH_JOB_MS) return null;
  return (await watch.waitForRow(id, FRESH_WAIT_MS)) ? loadJob(view.sql, id, keyId) : null;
}
