import type { Sql } from '@folio/db';

export interface AttemptStart {
  /** This start's number among all starts of the job, by any renderer process. */
  attempt: number;
  /** The job's read model says it is final already (a redelivery after a renderer died past its terminal event). */
  settled: boolean;
}

/**
 * Counts a start of a job durably, before any work, so that a job which takes its renderer down every time is
 * counted across processes and restarts; one statement, one round trip on the sync path.
 */
export async function startAttempt(sql: Sql, jobId: string, worker: string): Promise<AttemptStart> {
  const [row] = await sql<{ attempts: number; status: string | null }[]>`
    with started as (
      insert into render_attempts (job_id, attempts, worker, started_at) values (${jobId}, 1, ${worker}, now())
      on conflict (job_id) do update set attempts = render_attempts.attempts + 1, worker = excluded.worker, started_at = now()
      returning attempts
    )
    select started.attempts, (select status from jobs where job_id = ${jobId}) as status from started`;
  return { attempt: row!.attempts, settled: row!.status === 'succeeded' || row!.status === 'failed' };
}
