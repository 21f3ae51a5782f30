import type { Sql } from '@folio/db';
import type { Logger } from '@folio/logging';
import type { BlobStore } from '@folio/storage';
import { storedKeysOf } from './stored-keys.ts';

/** The class of the advisory lock that lets one process sweep at a time. */
const SWEEP_LOCK = 7_406_311_003;
const BATCH = 500;

export interface SweepContext {
  sql: Sql;
  store: BlobStore;
  fileTtlSeconds: number;
  /** FOLIO_JOB_TTL: how old a row that never learnt its expiry (no JobQueued) may get. */
  jobTtlSeconds: number;
  logger: Logger;
}

export interface Swept {
  jobs: number;
  files: number;
  claims: number;
}

/**
 * Deletes what has outlived its promise, rather than only hiding it: jobs past their readability (the row, its
 * history and everything stored for it — input, result, file), files past their link lifetime of jobs still
 * readable, Idempotency-Key claims after 24 hours and reservations of jobs that can no longer end. Usage rows stay:
 * they are the bill. One process sweeps at a time; the others skip.
 */
export async function sweepExpired(ctx: SweepContext): Promise<Swept | null> {
  return ctx.sql.begin(async (tx) => {
    const [{ locked }] = (await tx`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`) as unknown as [{ locked: boolean }];
    if (!locked) return null;
    const swept: Swept = { jobs: 0, files: 0, claims: 0 };
    for (;;) {
      const expired = await tx<{ job_id: string; result: unknown }[]>`
        select job_id, result from jobs
        where expires_at < now()
          -- A row made by an event that came after its job was swept (a late retry, a delivery) has no JobQueued,
          -- so no expiry: it goes once its id (a UUIDv7, which carries its creation time) is older than the TTL.
          or (expires_at is null and substr(job_id::text, 15, 1) = '7'
              and to_timestamp(('x' || substr(replace(job_id::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0)
                  < now() - make_interval(secs => ${ctx.jobTtlSeconds}))
        order by expires_at limit ${BATCH}`;
      if (expired.length === 0) break;
      const ids = expired.map((j) => j.job_id);
      await ctx.store.delete(expired.flatMap((j) => storedKeysOf(j.job_id, j.result)));
      await tx`delete from job_history where job_id in ${tx(ids)}`;
      await tx`delete from render_attempts where job_id in ${tx(ids)}`;
      await tx`delete from delivery_attempts where job_id in ${tx(ids)}`;
      await tx`delete from delivery_schedule where job_id in ${tx(ids)}`;
      await tx`delete from jobs where job_id in ${tx(ids)}`;
      swept.jobs += ids.length;
      if (expired.length < BATCH) break;
    }
    // Files outlive their links only when FOLIO_FILE_TTL is shorter than FOLIO_JOB_TTL; deleting again is harmless.
    const stale = await tx<{ job_id: string; key: string }[]>`
      select job_id, result->'file'->>'key' as key from jobs
      where result->'file'->>'key' is not null and finished_at < now() - make_interval(secs => ${ctx.fileTtlSeconds})`;
    if (stale.length > 0) {
      await ctx.store.delete(stale.map((s) => s.key));
      swept.files = stale.length;
    }
    const claims = await tx`delete from idempotency_keys where created_at < now() - interval '24 hours'`;
    await tx`delete from quota_reservations where expires_at < now()`;
    swept.claims = claims.count;
    return swept;
  });
}

/** Sweeps every `intervalMs`, logging what went; a failed sweep is tried again at the next turn. */
export function sweepPeriodically(ctx: SweepContext, intervalMs: number): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpired(ctx)
      .then((swept) => {
        if (swept && (swept.jobs || swept.files || swept.claims)) ctx.logger.info(swept, 'expired jobs, files and claims deleted');
      })
      .catch((error) => ctx.logger.warn({ err: error }, 'sweep failed; trying again at the next turn'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
