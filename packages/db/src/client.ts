import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { beforeScrape, poolMetrics } from '@folio/metrics';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';

export type Sql = postgres.Sql;
export type Db = PostgresJsDatabase<typeof schema>;

export interface Database {
  sql: Sql;
  db: Db;
  close(): Promise<void>;
}

/**
 * Two pools: `sql` for hand-written SQL (the projection's batch writes, LISTEN/NOTIFY) and `db` for drizzle's query
 * builder. They must not share a client: drizzle re-registers the client's json and timestamp (de)serialisers for
 * its own use, which breaks plain postgres.js parameters. `searchPath` puts another schema first (a replay's).
 */
export function connect(url: string, options: { max?: number; searchPath?: string } = {}): Database {
  const settings: postgres.Options<Record<string, postgres.PostgresType>> = {
    onnotice: () => {},
    // A replay writes the same unqualified table names into its own schema.
    ...(options.searchPath ? { connection: { search_path: options.searchPath } } : {}),
    // bigint columns come back as numbers (offsets and counts stay far below 2^53).
    types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
    transform: { undefined: null },
  };
  const sql = postgres(url, { ...settings, max: options.max ?? 10 });
  const orm = postgres(url, { ...settings, max: Math.max(1, Math.ceil((options.max ?? 10) / 4)) });
  const stopMetrics = beforeScrape(() => {
    reportPool('sql', sql);
    reportPool('orm', orm);
  });
  return {
    sql,
    db: drizzle(orm, { schema }),
    close: async () => {
      stopMetrics();
      await Promise.all([sql.end({ timeout: 5 }), orm.end({ timeout: 5 })]);
    },
  };
}

/** What patches/postgres+3.4.9.patch adds: the pool's queues, counted. */
interface PoolState {
  max: number;
  busy: number;
  reserved: number;
  idle: number;
  connecting: number;
  waiting: number;
}

function reportPool(name: string, pool: postgres.Sql): void {
  const state = (pool as unknown as { pool: PoolState }).pool;
  const metrics = poolMetrics();
  for (const kind of ['busy', 'reserved', 'idle', 'connecting'] as const) metrics.connections.set({ pool: name, state: kind }, state[kind]);
  metrics.waiting.set({ pool: name }, state.waiting);
  metrics.size.set({ pool: name }, state.max);
}

const MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
const MIGRATION_LOCK = 7_406_311_001;

/** Applies pending migrations. Safe to call from every process at start: an advisory lock serialises them. */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
