import type { Sql } from '@folio/db';
import { INCLUDED_DOCUMENTS, type ApiKey } from '@folio/keys';
import { lockKeys } from './lock.ts';
import { admits, periodOf } from './period.ts';

export type Reservation = { ok: true; reserved: boolean } | { ok: false; reason: 'quota_exceeded' | 'limit_exceeded'; used: number; included: number | null; limit: number | null };

/** The cap on a key's month: the free plan's included documents; paid plans are not stopped (documents beyond are billed). */
export function monthlyCap(key: Pick<ApiKey, 'plan'>): number | null {
  return key.plan === 'free' ? INCLUDED_DOCUMENTS.free : null;
}

/**
 * Reserves one document for a job about to be queued, atomically against every other request of the key: under the
 * key's lock, used + reserved is compared with the caps, so with 97 of 100 used, 20 concurrent requests get exactly
 * 3 reservations. A key without any cap reserves nothing (there is nothing to protect).
 */
export async function reserveDocument(sql: Sql, key: Pick<ApiKey, 'id' | 'plan' | 'documentLimit'>, jobId: string, expiresAt: string): Promise<Reservation> {
  const included = monthlyCap(key);
  const limit = key.documentLimit;
  if (included === null && limit === null) return { ok: true, reserved: false };
  return sql.begin(async (tx) => {
    await lockKeys(tx, [key.id]);
    const [counts] = await tx<{ used_this_period: number; used_ever: number; reserved: number }[]>`
      select
        (select count(*)::int from usage where key_id = ${key.id} and period = ${periodOf(new Date())}) as used_this_period,
        (case when ${limit}::int is null then 0 else (select count(*)::int from usage where key_id = ${key.id}) end) as used_ever,
        (select count(*)::int from quota_reservations where key_id = ${key.id} and expires_at > now()) as reserved`;
    const decision = admits({ usedThisPeriod: counts!.used_this_period, usedEver: counts!.used_ever, reserved: counts!.reserved }, { included, limit });
    if (decision !== 'ok') {
      const used = decision === 'limit_exceeded' ? counts!.used_ever : counts!.used_this_period;
      return { ok: false as const, reason: decision, used, included, limit };
    }
    await tx`insert into quota_reservations (job_id, key_id, expires_at) values (${jobId}, ${key.id}, ${expiresAt})`;
    return { ok: true as const, reserved: true };
  });
}

/** Gives a reservation back: its job was never queued (the log refused it). */
export async function releaseReservation(sql: Sql, jobId: string): Promise<void> {
  await sql`delete from quota_reservations where job_id = ${jobId}`;
}
