import type postgres from 'postgres';
import { wellFormedText } from '@folio/events';

/**
 * The dead-letter store. An event a consumer can never apply is parked here, with its place in the log and the
 * reason, so that its partition can move on; the event itself stays in the log. Operators list and retry parked
 * events (`folio parked list|retry`); a retry that applies one marks it resolved.
 */
export interface ParkedEvent {
  id: number;
  consumer: string;
  topic: string;
  partition: number;
  offset: number;
  job_id: string | null;
  event_type: string | null;
  error: string;
  tries: number;
  parked_at: string;
  resolved_at: string | null;
}

export interface Parking {
  consumer: string;
  topic: string;
  partition: number;
  offset: number;
  jobId: string | null;
  eventType: string | null;
  error: string;
  tries: number;
}

type Queryable = postgres.Sql | postgres.TransactionSql;

/** Error texts are capped: a parked record says why, it does not carry whole payloads. */
const MAX_ERROR_CHARS = 4000;

/** Records (or records again) a parked event and returns its id. Parking one position twice keeps one row. */
export async function parkEvent(sql: Queryable, p: Parking): Promise<number> {
  const error = wellFormedText(p.error).slice(0, MAX_ERROR_CHARS);
  const [row] = await sql<{ id: number }[]>`
    insert into parked_events (consumer, topic, partition, "offset", job_id, event_type, error, tries)
    values (${p.consumer}, ${p.topic}, ${p.partition}, ${p.offset}, ${p.jobId && wellFormedText(p.jobId)}, ${p.eventType}, ${error}, ${p.tries})
    on conflict (consumer, topic, partition, "offset") do update
      set error = excluded.error, tries = excluded.tries, parked_at = now(), resolved_at = null,
          job_id = excluded.job_id, event_type = excluded.event_type
    returning id`;
  return row!.id;
}

/** Parked events, oldest first; unresolved ones only unless `all`. */
export async function listParked(sql: Queryable, options: { all?: boolean } = {}): Promise<ParkedEvent[]> {
  const rows = await sql<ParkedEvent[]>`
    select * from parked_events ${options.all ? sql`` : sql`where resolved_at is null`} order by id`;
  return rows.map(normalise);
}

export async function findParked(sql: Queryable, id: number): Promise<ParkedEvent | null> {
  const [row] = await sql<ParkedEvent[]>`select * from parked_events where id = ${id}`;
  return row ? normalise(row) : null;
}

export async function markResolved(sql: Queryable, id: number): Promise<void> {
  await sql`update parked_events set resolved_at = now() where id = ${id}`;
}

/** A retry that failed again: the reason is brought up to date, the event stays parked. */
export async function markStillParked(sql: Queryable, id: number, error: string): Promise<void> {
  await sql`update parked_events set error = ${wellFormedText(error).slice(0, MAX_ERROR_CHARS)}, tries = tries + 1 where id = ${id}`;
}

/** How many parked events wait for an operator. */
export async function countParked(sql: Queryable): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from parked_events where resolved_at is null`;
  return row!.n;
}

function normalise(row: ParkedEvent): ParkedEvent {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return { ...row, offset: Number(row.offset), parked_at: iso(row.parked_at)!, resolved_at: iso(row.resolved_at) };
}
