import type postgres from 'postgres';
import type { Sql } from '@folio/db';
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
 */
export async function settleUsage(tx: postgres.TransactionSql, jobs: FinishedJob[]): Promise<void> {
  const final = jobs.filter((j) => j.key_id !== null && (j.status === 'succeeded' || j.status === 'failed'));
  if (final.length === 0) return;
  const succeeded = final.filter((j) => j.status === 'succeeded').sort((a, b) => a.job_id.localeCompare(b.job_id));
  if (succeeded.length > 0) await lockKeys(tx, succeeded.map((j) => j.key_id!));
  await Promise.all([
    ...succeeded.map((j) => {
      const period = periodOf(j.finished_at ?? new Date());
      return tx`
        insert into usage (job_id, key_id, period, ordinal, counted_at, output)
        select ${j.job_id}, ${j.key_id}, ${period}, coalesce(max(ordinal), 0) + 1, ${j.finished_at ?? new Date().toISOString()}, ${j.output}
        from usage where key_id = ${j.key_id} and period = ${period}
        on conflict (job_id) do nothing`;
    }),
    tx`delete from quota_reservations where job_id in ${tx(final.map((j) => j.job_id))}`,
  ]);
}

/** A counted job's number within its key's month, or null when it was not counted. */
export async function ordinalOf(sql: Sql, jobId: string): Promise<number | null> {
  const [row] = await sql<{ ordinal: number }[]>`select ordinal from usage where job_id = ${jobId}`;
  return row?.ordinal ?? null;
}
