import type { Sql } from '@folio/db';
import type { JobQueued } from '@folio/events';
import { redeem, type BlobStore } from '@folio/storage';
import type { ConvertRequest } from './convert-request.ts';

/**
 * The request a rerun repeats: the original's JobQueued as the log recorded it (its projection in `job_history`), with
 * its input read back from storage when it travelled by claim check. A rerun always runs in the background (it answers
 * 202 like an async convert) and keeps the original's webhook_url. Null when the job's request is not there.
 */
export async function requestOf(sql: Sql, store: BlobStore, jobId: string): Promise<ConvertRequest | null> {
  const [row] = await sql<Array<{ data: JobQueued }>>`
    select data from job_history where job_id = ${jobId} and type = 'JobQueued' and effective order by occurred_at limit 1`;
  if (!row) return null;
  const queued = row.data;
  const text = await redeem(store, { text: queued.input.text, ref: queued.input.ref });
  if (text === null) return null;
  return {
    input: { kind: queued.input.kind, text },
    output: queued.output,
    options: queued.options,
    async: true,
    webhookUrl: queued.webhook_url,
  };
}
