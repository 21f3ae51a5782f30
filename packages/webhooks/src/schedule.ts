import type { Queryable, Sql, Statement } from '@folio/db';
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
  /** The job's trace context, as the projector's step that owed the callback left it (null without traces). */
  trace: Record<string, string> | null;
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

/** A finished job that owes a callback, as the read model has it. */
export interface OwedCallback {
  job_id: string;
  key_id: string | null;
  webhook_url: string | null;
  finished_at: string | Date | null;
  expires_at: string | Date | null;
  /** The W3C trace context the delivery continues (none when traces are not exported). */
  trace?: Record<string, string> | null;
}

/** Where the projector tells dispatchers that callbacks became owed, so they are sent at once, not at the next look. */
export const CALLBACK_CHANNEL = 'folio_callback';

/**
 * Owes a callback for each of these jobs (final, with a key and a webhook_url, still readable): one row each in the
 * durable schedule, due now. Idempotent: a job's later terminal events, a batch applied again or a parked event
 * retried all find the row there already, so a job is scheduled once. One statement however many jobs, returned
 * unsent: the projector sends it in the transaction that makes the jobs final.
 */
export function scheduleCallbacks(sql: Queryable, jobs: OwedCallback[]): Statement {
  const rows = jobs
    .filter((j) => j.key_id !== null && j.webhook_url !== null && j.expires_at !== null)
    .map((j) => ({
      job_id: j.job_id,
      key_id: j.key_id,
      url: j.webhook_url,
      host: receiverHost(j.webhook_url!),
      finished_at: j.finished_at,
      expires_at: j.expires_at,
      trace: j.trace ?? null,
    }));
  if (rows.length === 0) return false;
  return sql`
    insert into delivery_schedule (job_id, key_id, url, host, state, next_attempt_at, finished_at, expires_at, trace)
    select job_id, key_id, url, host, 'pending', now(), finished_at, expires_at, trace
    from json_to_recordset(${JSON.stringify(rows)}::text::json)
      as r(job_id uuid, key_id uuid, url text, host text, finished_at timestamptz, expires_at timestamptz, trace jsonb)
    where expires_at > now()
    on conflict (job_id) do nothing`;
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
      returning job_id, key_id, url, host, body, attempts_made, redelivery, trace`;
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
 * Owes one more attempt at each callback whose attempts have ended (delivered, given up, not sent), because its key's
 * owner asked (a WebhookRedeliveryRequested event): it comes due at once and is sent once, without retries. A callback
 * still being delivered owes its attempts already and is left alone. Applying the same request twice (a batch applied
 * again) owes nothing more. One statement for a batch's requests, returned unsent (as `scheduleCallbacks`).
 */
export function scheduleRedeliveries(sql: Queryable, requests: Array<{ job_id: string; event_id: string }>): Statement {
  if (requests.length === 0) return false;
  return sql`
    update delivery_schedule d
    set state = 'pending', redelivery = true, next_attempt_at = now(), redelivery_event_id = r.event_id, updated_at = now()
    from json_to_recordset(${JSON.stringify(requests)}::text::json) as r(job_id uuid, event_id uuid)
    where d.job_id = r.job_id and d.state <> 'pending' and d.redelivery_event_id is distinct from r.event_id and d.expires_at > now()`;
}
