import type postgres from 'postgres';
import type { Queryable } from '@folio/db';
import type { DeliveryRow, HistoryRow } from './fold.ts';
import type { JobRow } from './job.ts';

/** A pool, a transaction or a reserved connection; each write is returned unsent (postgres.js sends on await). */
type Statements = Queryable;
type Query = postgres.PendingQuery<postgres.Row[]>;

const JOB_COLUMNS = [
  'job_id',
  'key_id',
  'status',
  'lane',
  'output',
  'request_id',
  'webhook_url',
  'created_at',
  'started_at',
  'finished_at',
  'expires_at',
  'attempts',
  'result',
  'error',
  'terminal_event_id',
] as const;
const HISTORY_COLUMNS = ['event_id', 'job_id', 'type', 'version', 'occurred_at', 'attempt', 'worker', 'effective', 'topic', 'partition', 'offset', 'data'] as const;
const DELIVERY_COLUMNS = ['event_id', 'job_id', 'attempt', 'url', 'status_code', 'error', 'duration_ms', 'outcome', 'next_attempt_at', 'occurred_at'] as const;

const list = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

/** The `on conflict (job_id) do update` of a job row: every column from the new row. */
export const UPDATE_JOB = JOB_COLUMNS.filter((c) => c !== 'job_id').map((c) => `${c} = excluded.${c}`).join(', ');

/**
 * Every read-model write is one statement a table, however many rows: the rows go as one JSON parameter that
 * Postgres unpacks (`json_populate_recordset`), not a parameter per column and row. So a statement's text never
 * depends on the batch's size (one prepared statement, planned once) and Postgres parses the rows in one pass; a
 * bulk load measured COPY no faster (bench/replay). Table names are unqualified: the replay's writer writes the same
 * rows into its own schema through its search path.
 */
function insertRows(sql: Statements, table: string, columns: readonly string[], rows: object[], conflict: string): Query {
  return sql.unsafe(
    `insert into ${table} (${list(columns)}) select ${list(columns)} from json_populate_recordset(null::${table}, $1::text::json) ${conflict}`,
    [JSON.stringify(rows)],
    // Its text never changes: parsed and planned once a connection, not at every batch.
    { prepare: true },
  );
}

/** Writes folded jobs, replacing their rows. */
export function saveJobRows(sql: Statements, rows: JobRow[]): Query {
  return insertRows(sql, 'jobs', JOB_COLUMNS, rows, `on conflict (job_id) do update set ${UPDATE_JOB}`);
}

export function insertHistory(sql: Statements, rows: HistoryRow[]): Query {
  return insertRows(sql, 'job_history', HISTORY_COLUMNS, rows, '');
}

/**
 * An attempt recorded twice (its event applied again) keeps one row; a replay's table gets its key only after the load
 * (its writer drops duplicates itself), so it inserts without the conflict clause, which needs the key.
 */
export function insertDeliveries(sql: Statements, rows: DeliveryRow[], { keyed = true } = {}): Query {
  return insertRows(sql, 'delivery_attempts', DELIVERY_COLUMNS, rows, keyed ? 'on conflict (event_id) do nothing' : '');
}

/** Where the projection has read each partition to, committed with the rows; a checkpoint only ever moves forward. */
export interface Checkpoint {
  topic: string;
  partition: number;
  next_offset: number;
}

export function saveCheckpoints(sql: Statements, rows: Checkpoint[]): Query {
  return insertRows(
    sql,
    'projection_checkpoints',
    ['topic', 'partition', 'next_offset'],
    rows,
    'on conflict (topic, partition) do update set next_offset = greatest(projection_checkpoints.next_offset, excluded.next_offset)',
  );
}

/** Rows come back with Date objects for timestamps; the fold works on ISO strings, as events carry them. */
export function normalise(row: JobRow): JobRow {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return {
    ...row,
    attempts: Number(row.attempts),
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    expires_at: iso(row.expires_at),
  };
}
