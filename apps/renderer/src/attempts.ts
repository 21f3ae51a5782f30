import type { Sql } from '@folio/db';

export interface AttemptStart {
  /** This start's number among all starts of the job, by any renderer process (it numbers JobProcessing). */
  attempt: number;
  /** Runs counted so far, this one included when it is the first. */
  counted: number;
  /** An earlier run never finished: this one must run alone before it is counted (`countIsolatedRun`). */
  isolate: boolean;
  /** The job's read model says it is final already (a redelivery after a renderer died past its terminal event). */
  settled: boolean;
}

/**
 * Records a start of each of these jobs before any work, in one round trip whatever their number. A job's first run
 * is counted at once. A job with a run that never finished (its renderer died, perhaps of another job beside it) is
 * not counted yet: it must first have its renderer to itself, so that only a job that kills renderers running alone
 * uses up its attempts.
 */
export async function startAttempts(sql: Sql, jobIds: string[], worker: string): Promise<Map<string, AttemptStart>> {
  const ids = [...new Set(jobIds)];
  if (ids.length === 0) return new Map();
  const rows = await sql<{ job_id: string; attempts: number; counted: number; before: number; status: string | null }[]>`
    with before as (select job_id, counted from render_attempts where job_id = any(${ids}::uuid[])),
    started as (
      insert into render_attempts (job_id, attempts, counted, worker, started_at)
      select id, 1, 1, ${worker}, now() from unnest(${ids}::uuid[]) as id
      on conflict (job_id) do update set
        attempts = render_attempts.attempts + 1,
        counted = greatest(render_attempts.counted, 1),
        worker = excluded.worker,
        started_at = now()
      returning job_id, attempts, counted
    )
    select started.job_id, started.attempts, started.counted, coalesce(before.counted, 0) as before, jobs.status
    from started left join before using (job_id) left join jobs using (job_id)`;
  return new Map(
    rows.map((row) => [
      row.job_id,
      { attempt: row.attempts, counted: row.counted, isolate: row.before > 0, settled: row.status === 'succeeded' || row.status === 'failed' },
    ]),
  );
}

/** Records one start of a job (`startAttempts` of one). */
export async function startAttempt(sql: Sql, jobId: string, worker: string): Promise<AttemptStart> {
  return (await startAttempts(sql, [jobId], worker)).get(jobId)!;
}

/**
 * Counts a run that now has its renderer to itself; returns the runs counted. The count stops one past `limit`: the
 * start that reaches it fails the job unconverted, and a copy of the job read again before that failure is committed
 * (a rebalance hands its partition on mid-flight) must fail it with the same count, not one more.
 */
export async function countIsolatedRun(sql: Sql, jobId: string, limit: number): Promise<number> {
  const [row] = await sql<{ counted: number }[]>`
    update render_attempts set counted = least(counted + 1, ${limit + 1}::int) where job_id = ${jobId} returning counted`;
  return row!.counted;
}

/** Takes back a run that ended because its consumer stopped (a rebalance, a shutdown): it was no fault of the job. */
export async function uncountRun(sql: Sql, jobId: string): Promise<void> {
  await sql`update render_attempts set counted = greatest(counted - 1, 0) where job_id = ${jobId}`;
}
