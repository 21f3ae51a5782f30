import type { Sql } from '@folio/db';
import { INCLUDED_DOCUMENTS, type Plan } from '@folio/keys';
import { decodeCursor, isInteger, pageOf } from './pages.ts';

/** One document that counted: what GET /v2/usage lists. */
export interface LedgerEntry {
  job_id: string;
  /** When its success was counted (the job's finished_at). */
  counted_at: string;
  output: string | null;
  /** Its number in the key's month: the `used_this_period` every reading of the job reports. */
  ordinal: number;
}

export interface LedgerPage {
  period: string;
  usage: { used_this_period: number; included: number; plan: Plan };
  data: LedgerEntry[];
  next_cursor: string | null;
}

/**
 * The meter's rows of one key and month (GET /v2/usage), in the order they were counted. They are the very rows
 * admission counts and every result's `usage` reports, so a billing question is answered from what was charged.
 */
export async function usageLedgerPage(
  sql: Sql,
  key: { id: string; plan: Plan },
  period: string,
  page: { limit: number; cursor?: string },
): Promise<LedgerPage> {
  const after = decodeCursor<[number]>(page.cursor, [isInteger] as never);
  const [rows, [total]] = await Promise.all([
    sql<Array<LedgerEntry & { counted_at: Date }>>`
      select job_id, counted_at, output, ordinal from usage
      where key_id = ${key.id} and period = ${period} and ordinal > ${after?.[0] ?? 0}
      order by ordinal
      limit ${page.limit + 1}`,
    sql<Array<{ used: number }>>`select count(*)::int as used from usage where key_id = ${key.id} and period = ${period}`,
  ]);
  const { items, nextCursor } = pageOf(rows, page.limit, (r) => [r.ordinal]);
  return {
    period,
    usage: { used_this_period: total!.used, included: INCLUDED_DOCUMENTS[key.plan], plan: key.plan },
    data: items.map((r) => ({ job_id: r.job_id, counted_at: r.counted_at.toISOString(), output: r.output, ordinal: r.ordinal })),
    next_cursor: nextCursor,
  };
}
