import type { Sql } from '@folio/db';
import type { DeliveryOutcome } from '@folio/events';

/** A callback owed, as the dispatcher claims it from `delivery_schedule`. */
export interface ScheduledCallback {
  job_id: string;
  key_id: string;
  url: string;
  host: string;
  body: string | null;
  attempts_made: number;
  /** The attempt owed was asked for by the key's owner (a redelivery): it is sent once, without retries. */
  redelivery: boolean;
}

/** host:port of a webhook_url: the unit of per-receiver fairness. */
export function receiverHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'http:' ? '80' : '443')}`;
  } catch {
    return '';
  }
}

/**
 * Owes a callback for each of these jobs that is final in the read model and has a webhook_url (only async jobs can
 * have one). Idempotent: a job's later terminal events, a redelivered batch or a parked event retried all find the
 * row there already, so a job is scheduled once. Returns how many were newly scheduled.
 */
export async function scheduleCallbacks(sql: Sql, jobIds: string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const jobs = await sql<Array<{ job_id: string; key_id: string; webhook_url: string; finished_at: Date; expires_at: Date }>>`
    select job_id, key_id, webhook_url, finished_at, expires_at from jobs
    where job_id in ${sql(jobIds)} and webhook_url is not null and key_id is not null
      and status in ('succeeded', 'failed') and expires_at > now()`;
  if (jobs.length === 0) return 0;
  const now = new Date();
  const rows = jobs.map((j) => ({
    job_id: j.job_id,
    key_id: j.key_id,
    url: j.webhook_url,
    host: receiverHost(j.webhook_url),
    state: 'pending',
    next_attempt_at: now,
    finished_at: j.finished_at,
    expires_at: j.expires_at,
  }));
  const inserted = await sql`insert into delivery_schedule ${sql(rows)} on conflict (job_id) do nothing returning job_id`;
  return inserted.length;
}

/**
 * Claims up to `limit` due callbacks for this process, at most `room(host)` for any receiver host, skipping hosts
 * that have no room (so a backlog for one slow receiver never stands in front of the others). The claim pushes each
 * row's due time `leaseMs` ahead: if this process dies mid-attempt, the row comes due again then and the attempt is
 * repeated; rows being worked on are invisible to other dispatchers meanwhile.
 */
export async function claimDueCallbacks(
  sql: Sql,
  options: { limit: number; room: (host: string) => number; fullHosts: string[]; leaseMs: number },
): Promise<ScheduledCallback[]> {
  if (options.limit <= 0) return [];
  return sql.begin(async (tx) => {
    const candidates = await tx<Array<{ job_id: string; host: string }>>`
      select job_id, host from delivery_schedule
      where state = 'pending' and next_attempt_at <= now() and host <> all(${options.fullHosts}::text[])
      order by next_attempt_at
      limit ${options.limit * 4}
      for update skip locked`;
    const taken = new Map<string, number>();
    const chosen: string[] = [];
    for (const c of candidates) {
      if (chosen.length >= options.limit) break;
      const n = taken.get(c.host) ?? 0;
      if (n >= options.room(c.host)) continue;
      taken.set(c.host, n + 1);
      chosen.push(c.job_id);
    }
    if (chosen.length === 0) return [];
    return tx<ScheduledCallback[]>`
      update delivery_schedule set next_attempt_at = now() + ${options.leaseMs} * interval '1 millisecond', updated_at = now()
      where job_id in ${tx(chosen)}
      returning job_id, key_id, url, host, body, attempts_made, redelivery`;
  }) as Promise<ScheduledCallback[]>;
}

/** When the next callback comes due (null: none pending), so an idle dispatcher sleeps just long enough. */
export async function nextDueAt(sql: Sql): Promise<Date | null> {
  const [row] = await sql<Array<{ at: Date | null }>>`select min(next_attempt_at) as at from delivery_schedule where state = 'pending'`;
  return row?.at ?? null;
}

/** Keeps the bytes every attempt of this callback sends (the first attempt renders them; retries reuse them). */
export async function keepCallbackBody(sql: Sql, jobId: string, body: string): Promise<string> {
  const [row] = await sql<Array<{ body: string }>>`
    update delivery_schedule set body = coalesce(body, ${body}) where job_id = ${jobId} returning body`;
  return row?.body ?? body;
}

/**
 * Records how attempt `attempt` ended: the schedule moves on to the next retry or ends. Guarded by the attempt
 * number, so a repeated attempt (after a crash) cannot move the schedule twice.
 */
export async function recordAttempt(
  sql: Sql,
  jobId: string,
  attempt: number,
  outcome: DeliveryOutcome,
  nextAttemptAt: Date | null,
): Promise<void> {
  const state = outcome === 'retrying' ? 'pending' : outcome;
  await sql`
    update delivery_schedule
    set attempts_made = ${attempt}, state = ${state}, next_attempt_at = ${nextAttemptAt ?? new Date()}, redelivery = false, updated_at = now()
    where job_id = ${jobId} and attempts_made = ${attempt - 1}`;
}

/**
 * Owes one more attempt at a callback whose attempts have ended (delivered, given up, not sent), because its key's
 * owner asked (a WebhookRedeliveryRequested event): it comes due at once and is sent once, without retries. A callback
 * still being delivered owes its attempts already and is left alone. Applying the same request twice (the dispatcher
 * reading its batch again) owes nothing more. Returns whether an attempt is now owed.
 */
export async function scheduleRedelivery(sql: Sql, jobId: string, requestEventId: string): Promise<boolean> {
  const owed = await sql`
    update delivery_schedule
    set state = 'pending', redelivery = true, next_attempt_at = now(), redelivery_event_id = ${requestEventId}, updated_at = now()
    where job_id = ${jobId} and state <> 'pending' and redelivery_event_id is distinct from ${requestEventId}::uuid and expires_at > now()
    returning job_id`;
  return owed.length > 0;
}
