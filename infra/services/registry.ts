// Apicurio Registry 3 (Quarkus distribution from Maven Central) with SQL storage on Postgres, used through its
// Confluent-compatible API (/apis/ccompat/v7). Config properties were checked against the application.properties
// inside apicurio-registry-app-3.0.9-runner.jar.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { javaCommand, registryJar } from './cache.ts';
import { createDatabase } from './postgres.ts';
import { ensureReady, spawnService, waitUntilReady, type RunningService } from './process.ts';

export interface RegistryOptions {
  port: number;
  /** Where it listens (default 127.0.0.1). */
  address?: string;
  /** The network namespace to run in (a host of `npm run cluster`). */
  netns?: string;
  /** postgres:// URL of the registry's own database (created if missing). */
  databaseUrl: string;
  /** Holds the log, the pid file and Apicurio's scratch directories. */
  dataDir: string;
  heapMb?: number;
  readyTimeoutMs?: number;
}

export type RegistryService = RunningService & { url: string };

/** postgres://user:pass@host:port/db?x=y → JDBC URL + credentials. */
export function jdbcFromPostgresUrl(url: string): { jdbcUrl: string; username: string; password: string } {
  const u = new URL(url);
  const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  const host = u.hostname.includes(':') && !u.hostname.startsWith('[') ? `[${u.hostname}]` : u.hostname;
  return {
    jdbcUrl: `jdbc:postgresql://${host}:${u.port || '5432'}/${db}${u.search}`,
    username: decodeURIComponent(u.username || 'postgres'),
    password: decodeURIComponent(u.password),
  };
}

export async function startRegistry(opts: RegistryOptions): Promise<RegistryService> {
  const dataDir = path.resolve(opts.dataDir);
  const tmpDir = path.join(dataDir, 'tmp');
  await fsp.mkdir(tmpDir, { recursive: true });
  const dbName = decodeURIComponent(new URL(opts.databaseUrl).pathname.replace(/^\//, ''));
  if (dbName) await createDatabase(opts.databaseUrl, dbName);
  const { jdbcUrl, username, password } = jdbcFromPostgresUrl(opts.databaseUrl);
  const jar = registryJar();

  // System properties (ordinal 400) win over environment variables (300) and ./config/application.properties; the
  // password goes through the environment (APICURIO_DATASOURCE_PASSWORD) so that it does not show in `ps`.
  const props: Record<string, string> = {
    'quarkus.http.host': opts.address ?? '127.0.0.1',
    'quarkus.http.port': String(opts.port),
    'apicurio.storage.kind': 'sql',
    'apicurio.storage.sql.kind': 'postgresql',
    'apicurio.datasource.url': jdbcUrl,
    'apicurio.datasource.username': username,
    // Defaults are 20/20/100 connections: too many for a dev Postgres shared with the app.
    'apicurio.datasource.jdbc.initial-size': '2',
    'apicurio.datasource.jdbc.min-size': '2',
    'apicurio.datasource.jdbc.max-size': '10',
    'apicurio.sql.init': 'true',
    // Without a global rule, ccompat reports NONE and @kafkajs/confluent-schema-registry's register() fails.
    'apicurio.rules.global.compatibility': 'BACKWARD',
    'apicurio.storage.snapshot.location': tmpDir,
    'apicurio.import.work-dir': tmpDir,
    'quarkus.log.level': 'INFO',
    'quarkus.log.console.format': '%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c{3.}] (%t) %s%e%n',
    'java.io.tmpdir': tmpDir,
  };
  const heap = opts.heapMb ?? 512;
  const svc = await spawnService({
    name: 'registry',
    command: javaCommand(),
    args: [
      `-Xmx${heap}m`, '-XX:+UseSerialGC', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true',
      // The first compiler tier only, as a lone Kafka broker runs (kafka.ts). The registry answers a few dozen
      // requests for each new set of topics, and C2 spent more CPU compiling its code than it ever saved: a start
      // took 13.0–13.6 s of CPU, and 40 stacks' registrations (four processes each, every schema on two topics)
      // 63.3–63.7 s, against 6.9–7.1 s and 33.4–34.3 s with C1 alone (measured A/B, two runs each).
      '-XX:TieredStopAtLevel=1',
      `-Dfolio.service=registry`, `-Dfolio.dataDir=${dataDir}`,
      ...Object.entries(props).map(([k, v]) => `-D${k}=${v}`),
      '-jar', jar,
    ],
    dataDir,
    cwd: dataDir,
    env: { ...process.env, APICURIO_DATASOURCE_PASSWORD: password },
    cmdlineMarker: `-Dfolio.dataDir=${dataDir}`,
    ports: [opts.port],
    stopTimeoutMs: 20_000,
    ...(opts.netns ? { netns: opts.netns } : {}),
  });
  const url = `http://${opts.address ?? '127.0.0.1'}:${opts.port}/apis/ccompat/v7`;
  await ensureReady(svc, async () => {
    await waitUntilReady(svc, () => probeRegistry(url), { timeoutMs: opts.readyTimeoutMs ?? 180_000, intervalMs: 300 });
    await ensureGlobalCompatibility(url, 'BACKWARD');
  });
  return Object.assign(svc, { url });
}

/**
 * `apicurio.rules.global.compatibility` is only a default that is enforced: ccompat's GET /config still answers
 * NONE until a global rule is stored. Store it, so that what the registry reports is what it enforces.
 */
async function ensureGlobalCompatibility(url: string, level: string): Promise<void> {
  const current = await fetch(`${url}/config`, { signal: AbortSignal.timeout(5_000) });
  const body = (await current.json().catch(() => ({}))) as { compatibilityLevel?: string };
  if (current.ok && body.compatibilityLevel === level) return;
  const res = await fetch(`${url}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: level }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`registry: PUT ${url}/config failed: ${res.status} ${await res.text()}`);
}

/** True when GET <ccompat>/subjects answers 200. */
export async function probeRegistry(url: string): Promise<boolean> {
  const res = await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(3_000) });
  await res.arrayBuffer();
  return res.status === 200;
}
