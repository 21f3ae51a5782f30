import type postgres from 'postgres';
import { READ_MODEL_TABLES, type Sql } from '@folio/db';

/** Where a replay builds its fresh read models, beside the live ones. */
export const REPLAY_SCHEMA = 'folio_replay';
/** Where a swap moves the read models it replaced: kept for a look or a swap back, dropped by the next replay. */
export const RETIRED_SCHEMA = 'folio_retired';

/** The read models, in the order a swap locks them: the checkpoints first, as the projection's transactions do. */
const TABLES = ['projection_checkpoints', ...READ_MODEL_TABLES.filter((t) => t !== 'projection_checkpoints')];

/** A pool or a transaction: what the statements here need. */
export type Statements = Pick<Sql, 'unsafe'>;

/**
 * Tables whose keys the replay adds after loading them: its writer drops duplicate events by id itself, and a key
 * built once over the loaded rows costs less than one kept up at every insert.
 */
const DEFERRED_KEYS = new Set(['job_history', 'delivery_attempts']);

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The schema the live read models are in: the first of the live connections' search path that has `jobs`. */
export async function liveSchema(sql: Sql): Promise<string> {
  const [row] = await sql<{ schema: string }[]>`
    select n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.oid = to_regclass('jobs')`;
  if (!row) throw new Error('no jobs table: migrate the database first');
  return row.schema;
}

/**
 * Makes empty copies of the read models in the replay schema (any earlier replay's are dropped): the same columns,
 * defaults, keys and constraint names, so after a swap the tables are indistinguishable from migrated ones (a later
 * migration finds the names it expects). Unlogged while they load, and without their secondary indexes, which are
 * built once at the end (`finishReplayTables`): both are the larger part of a bulk load's cost.
 */
export async function createReplayTables(sql: Sql, live: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(`drop schema if exists ${ident(REPLAY_SCHEMA)} cascade`);
    await tx.unsafe(`create schema ${ident(REPLAY_SCHEMA)}`);
    for (const table of TABLES) {
      await tx.unsafe(
        `create unlogged table ${ident(REPLAY_SCHEMA)}.${ident(table)} (like ${ident(live)}.${ident(table)} including defaults including constraints including identity including generated including storage)`,
      );
      if (!DEFERRED_KEYS.has(table)) await copyKeys(tx, live, table);
    }
  });
}

/** Gives a replay table the primary key and unique constraints of its live original, under the same names. */
async function copyKeys(sql: Sql | postgres.TransactionSql, live: string, table: string): Promise<void> {
  const keys = await sql<{ name: string; definition: string }[]>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${`${ident(live)}.${ident(table)}`}::regclass and contype in ('p', 'u')
      and conname not in (select conname from pg_constraint where conrelid = ${`${ident(REPLAY_SCHEMA)}.${ident(table)}`}::regclass)`;
  for (const k of keys) await sql.unsafe(`alter table ${ident(REPLAY_SCHEMA)}.${ident(table)} add constraint ${ident(k.name)} ${k.definition}`);
}

/** Adds the keys a replay table was made without (`DEFERRED_KEYS`), if it lacks them still. */
export async function addDeferredKeys(sql: Sql, live: string, table: string): Promise<void> {
  await copyKeys(sql, live, table);
}

/** Builds the secondary indexes the live tables have and makes the tables logged: they are about to be compared and swapped in. */
export async function finishReplayTables(sql: Sql, live: string): Promise<void> {
  for (const table of TABLES) {
    if (DEFERRED_KEYS.has(table)) await copyKeys(sql, live, table);
    const indexes = await sql<{ definition: string }[]>`
      select pg_get_indexdef(i.indexrelid) as definition from pg_index i
      where i.indrelid = ${`${ident(live)}.${ident(table)}`}::regclass
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`;
    for (const { definition } of indexes) await sql.unsafe(retarget(definition, live, table));
    await sql.unsafe(`alter table ${ident(REPLAY_SCHEMA)}.${ident(table)} set logged`);
  }
}

/** An index definition of a live table, made to build the same index on the replay's copy. */
export function retarget(definition: string, live: string, table: string): string {
  const qualified = [`${ident(live)}.${ident(table)}`, `${live}.${table}`, `${ident(live)}.${table}`, `${live}.${ident(table)}`];
  for (const q of qualified) {
    const at = definition.indexOf(` ON ${q} `);
    if (at >= 0) return `${definition.slice(0, at)} ON ${ident(REPLAY_SCHEMA)}.${ident(table)} ${definition.slice(at + q.length + 5)}`;
  }
  throw new Error(`cannot tell which table this index is on: ${definition}`);
}

/**
 * Swaps the replayed read models in, in one transaction of renames: the live ones move to the retired schema and the
 * replay's take their place under the same names. Runs inside the caller's transaction, which already holds the live
 * tables locked (`lockLiveTables`).
 */
export async function swapTables(tx: Statements, live: string): Promise<void> {
  await tx.unsafe(`drop schema if exists ${ident(RETIRED_SCHEMA)} cascade`);
  await tx.unsafe(`create schema ${ident(RETIRED_SCHEMA)}`);
  for (const table of TABLES) await tx.unsafe(`alter table ${ident(live)}.${ident(table)} set schema ${ident(RETIRED_SCHEMA)}`);
  for (const table of TABLES) await tx.unsafe(`alter table ${ident(REPLAY_SCHEMA)}.${ident(table)} set schema ${ident(live)}`);
  await tx.unsafe(`drop schema ${ident(REPLAY_SCHEMA)}`);
}

/**
 * Locks the live read models against every writer and reader until the transaction ends, in the order the
 * projection takes them (its transactions start on `projection_checkpoints`), so neither waits on the other in a cycle.
 * A projection transaction under way finishes first; the next waits here and then sees the swapped tables.
 */
export async function lockLiveTables(tx: Statements, live: string): Promise<void> {
  for (const table of TABLES) await tx.unsafe(`lock table ${ident(live)}.${ident(table)} in access exclusive mode`);
}

/** Drops what a replay that will not be swapped in leaves behind. */
export async function dropReplayTables(sql: Sql): Promise<void> {
  await sql.unsafe(`drop schema if exists ${ident(REPLAY_SCHEMA)} cascade`);
}
