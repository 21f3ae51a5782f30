import type { Queryable, Statement } from '@folio/db';
import { lockKeys } from './lock.ts';
import { periodOf } from './period.ts';

export interface FinishedJob {
  job_id: string;
  key_id: string | null;
  status: string;
  finished_at: string | null;
  /** What the document was, kept in its ledger row (GET /v2/usage). */
  output: string | null;
}

/**
 * Settles the meter for jobs the projector just folded, inside its transaction: a job that succeeded (and whose key is
 * known) is counted once, with the next number of its key's month; a job that reached either final state gives its
 * reservation back. Counting takes the key's lock until the transaction commits, so numbers are handed out in commit
 * order and never twice. Idempotent: a job counted already keeps its row and number.
 *
 * Returns the statements, unsent, in the order they must run (the lock first): the caller sends them with the rest of
 * its transaction (`readThenWrite`). One statement counts the batch, however many jobs it ended.
 */
export function settleUsage(tx: Queryable, jobs: FinishedJob[]): Statement[] {
  const final = jobs.filter((j) => j.key_id !== null && (j.status === 'succeeded' || j.status === 'failed'));
  if (final.length === 0) return [];
  const counted = final
    .filter((j) => j.status === 'succeeded')
    .map((j) => ({ job_id: j.job_id, key_id: j.key_id!, period: periodOf(j.finished_at ?? new Date()), counted_at: j.finished_at ?? new Date().toISOString(), output: j.output }));
  return [
    counted.length > 0 && lockKeys(tx, counted.map((j) => j.key_id)),
    // The jobs not counted yet are numbered on from their key's month, in job-id order (the locks are held: nobody
    // else numbers meanwhile).
    counted.length > 0 &&
      tx`
        with fresh as (
          select f.* from json_to_recordset(${JSON.stringify(counted)}::text::json)
            as f(job_id uuid, key_id uuid, period text, counted_at timestamptz, output text)
          where not exists (select 1 from usage u where u.job_id = f.job_id)
        ),
        numbered as (
          select fresh.*, row_number() over (partition by key_id, period order by job_id) as n from fresh
        )
        insert into usage (job_id, key_id, period, ordinal, counted_at, output)
        select n.job_id, n.key_id, n.period,
               coalesce((select max(ordinal) from usage u where u.key_id = n.key_id and u.period = n.period), 0) + n.n,
               n.counted_at, n.output
        from numbered n
        on conflict (job_id) do nothing`,
    tx`delete from quota_reservations where job_id = any(${final.map((j) => j.job_id)}::uuid[])`,
  ];
}
