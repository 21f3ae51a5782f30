import type postgres from 'postgres';
import type { Queryable } from '@folio/db';

/** The class of the per-key advisory locks that serialise a key's reservations and countings. */
const METER_LOCK_CLASS = 7_406_311;

/**
 * The statement that takes the meter locks of these keys until the transaction ends, in a fixed order (so the projector's concurrent
 * partitions and the API's admissions never deadlock on them).
 */
export function lockKeys(tx: Queryable, keyIds: string[]): postgres.PendingQuery<postgres.Row[]> {
  const keys = [...new Set(keyIds)].sort();
  return tx`
    select pg_advisory_xact_lock(${METER_LOCK_CLASS}, hashtext(k))
    from (select k from unnest(${keys}::text[]) as k order by k) as ordered`;
}
