import { createHash } from 'node:crypto';
import type { Sql } from '@folio/db';
import { ApiError } from '../errors.ts';
import type { ConvertRequest } from './convert-request.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** What an Idempotency-Key may look like: visible ASCII, at most 255 characters (Stripe's limit). */
export const SANE_KEY = /^[\x21-\x7e]{1,255}$/;

export type Claim = { kind: 'new'; jobId: string } | { kind: 'replay'; jobId: string };

/**
 * Claims an idempotency key for a new job, or finds the job that claimed it within the last 24 hours. The same key
 * with other parameters is a client bug (two requests sharing a key): refused, naming the header. A claim older than
 * 24 hours is taken over, as if new.
 */
export async function claimIdempotencyKey(
  sql: Sql,
  sent: string | string[] | undefined,
  meta: { keyId: string; request: ConvertRequest; jobId: string },
): Promise<Claim | null> {
  if (sent === undefined) return null;
  if (typeof sent !== 'string' || !SANE_KEY.test(sent)) {
    throw ApiError.invalid(IDEMPOTENCY_HEADER, 'must be 1 to 255 visible ASCII characters, sent once');
  }
  const requestHash = hashRequest(meta.request);
  const [claimed] = await sql<{ job_id: string }[]>`
    insert into idempotency_keys (key_id, idempotency_key, request_hash, job_id, async)
    values (${meta.keyId}, ${sent}, ${requestHash}, ${meta.jobId}, ${meta.request.async})
    on conflict (key_id, idempotency_key) do update
      set request_hash = excluded.request_hash, job_id = excluded.job_id, async = excluded.async, created_at = now()
      where idempotency_keys.created_at < now() - interval '24 hours'
    returning job_id`;
  if (claimed) return { kind: 'new', jobId: claimed.job_id };
  const [existing] = await sql<{ job_id: string; request_hash: string }[]>`
    select job_id, request_hash from idempotency_keys where key_id = ${meta.keyId} and idempotency_key = ${sent}`;
  // Gone between the two statements (released by a request that failed at admission): this request is the first.
  if (!existing) return claimIdempotencyKey(sql, sent, meta);
  if (existing.request_hash !== requestHash) {
    throw ApiError.invalid(IDEMPOTENCY_HEADER, 'was used within the last 24 hours for a request with other parameters', 422);
  }
  return { kind: 'replay', jobId: existing.job_id };
}

/** Gives a claim back when its job never reached the log (refused at admission), so a retry converts for real. */
export async function releaseIdempotencyKey(sql: Sql, keyId: string, jobId: string): Promise<void> {
  await sql`delete from idempotency_keys where key_id = ${keyId} and job_id = ${jobId}`;
}

/** The request as interpreted, so the same parameters in JSON, a form or a query hash alike. */
export function hashRequest(request: ConvertRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}
