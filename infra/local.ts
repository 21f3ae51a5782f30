// Starts Folio's backing services locally (or passes through external ones named in the environment) and returns the
// environment the apps need to reach them.
import path from 'node:path';
import {
  createDatabase,
  startKafka,
  startPostgres,
  startRegistry,
  startS3,
  withDatabase,
  type RunningService,
} from './services/index.ts';

export interface LocalPorts {
  kafka: number;
  kafkaController: number;
  registry: number;
  postgres: number;
  s3: number;
}

export const defaultPorts: LocalPorts = { kafka: 19092, kafkaController: 19093, registry: 18081, postgres: 15432, s3: 18333 };

/** Credentials and bucket of the local S3 server (dev only). */
export const localS3 = {
  bucket: 'folio',
  region: 'us-east-1',
  accessKeyId: 'folio-local',
  secretAccessKey: 'folio-local-secret',
} as const;

export interface LocalInfraOptions {
  /** Each started service keeps its data in `<stateDir>/<service>` (kafka, postgres, registry, s3). */
  stateDir: string;
  ports?: Partial<LocalPorts>;
  /** KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL, S3_ENDPOINT select external services. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Start a local S3 server when S3_ENDPOINT is not set (tests: yes; `npm start`: no, files stay on local disk). */
  s3?: boolean;
  /** Start each local service from empty data (tests: every run starts as a fresh clone does). Default: keep it. */
  fresh?: boolean;
  /** One progress line per service. Default: stderr. */
  log?: (line: string) => void;
}

export interface LocalInfra {
  /** KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL, S3_ENDPOINT, S3_BUCKET, S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY */
  env: Record<string, string>;
  /** Stops what was started, dependents first (registry; kafka and s3; postgres). Idempotent. */
  stop(): Promise<void>;
}

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

export async function startLocalInfra(opts: LocalInfraOptions): Promise<LocalInfra> {
  const env = opts.env ?? process.env;
  const ports: LocalPorts = { ...defaultPorts, ...opts.ports };
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const stateDir = path.resolve(opts.stateDir);
  const given = (name: string): string | undefined => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const started: Partial<Record<'postgres' | 'kafka' | 's3' | 'registry', RunningService>> = {};
  const out: Record<string, string> = {};

  const timed = async <T>(name: string, start: () => Promise<T>, where: (t: T) => string): Promise<T> => {
    const t0 = performance.now();
    try {
      const r = await start();
      log(`${name} ready on ${where(r)} (${seconds(t0)})`);
      return r;
    } catch (err) {
      log(`${name} failed after ${seconds(t0)}`);
      throw err;
    }
  };

  // Postgres (server URL, any database on it) — the registry and the app each get their own database.
  const externalDb = given('DATABASE_URL');
  const postgresServer: Promise<string> = externalDb
    ? (log(`postgres: using DATABASE_URL (external)`), Promise.resolve(externalDb))
    : timed('postgres', async () => {
      const pg = await startPostgres({ port: ports.postgres, dataDir: path.join(stateDir, 'postgres'), fresh: opts.fresh });
      started.postgres = pg;
      return pg.url;
    }, () => `127.0.0.1:${ports.postgres}`);

  const appDb = externalDb
    ? Promise.resolve(externalDb)
    : postgresServer.then((url) => createDatabase(url, 'folio'));

  const kafka = given('KAFKA_BROKERS')
    ? (log(`kafka: using KAFKA_BROKERS=${given('KAFKA_BROKERS')} (external)`), Promise.resolve(given('KAFKA_BROKERS')!))
    : timed('kafka', async () => {
      const k = await startKafka({
        port: ports.kafka, controllerPort: ports.kafkaController, dataDir: path.join(stateDir, 'kafka'), fresh: opts.fresh,
      });
      started.kafka = k;
      return k.brokers;
    }, (b) => b);

  const s3 = !given('S3_ENDPOINT') && opts.s3 === false
    ? Promise.resolve(null)
    : given('S3_ENDPOINT')
    ? (log(`s3: using S3_ENDPOINT=${given('S3_ENDPOINT')} (external)`), Promise.resolve({
      endpoint: given('S3_ENDPOINT')!,
      bucket: given('S3_BUCKET') ?? localS3.bucket,
      region: given('S3_REGION') ?? given('AWS_REGION') ?? localS3.region,
      accessKeyId: given('AWS_ACCESS_KEY_ID'),
      secretAccessKey: given('AWS_SECRET_ACCESS_KEY'),
    }))
    : timed('s3', async () => {
      const s = await startS3({ port: ports.s3, dataDir: path.join(stateDir, 's3'), fresh: opts.fresh, ...localS3 });
      started.s3 = s;
      return s as { endpoint: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string };
    }, (s) => s.endpoint.replace(/^https?:\/\//, ''));

  const registry = given('SCHEMA_REGISTRY_URL')
    ? (log(`registry: using SCHEMA_REGISTRY_URL=${given('SCHEMA_REGISTRY_URL')} (external)`),
      Promise.resolve(given('SCHEMA_REGISTRY_URL')!))
    : postgresServer.then((server) => timed('registry', async () => {
      const r = await startRegistry({
        port: ports.registry,
        databaseUrl: withDatabase(server, 'schema_registry'),
        dataDir: path.join(stateDir, 'registry'),
      });
      started.registry = r;
      return r.url;
    }, (url) => url));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const quietly = (s?: RunningService) => s?.stop().catch(() => s.kill());
      await quietly(started.registry);
      await Promise.all([quietly(started.kafka), quietly(started.s3)]);
      await quietly(started.postgres);
    })();
    return stopping;
  };

  const results = await Promise.allSettled([postgresServer, appDb, kafka, s3, registry]);
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failures.length) {
    await stop();
    const messages = [...new Set(failures.map((f) => (f.reason as Error)?.message ?? String(f.reason)))];
    throw new Error(`local infrastructure failed to start:\n${messages.join('\n\n')}`);
  }

  const s3c = await s3;
  out.KAFKA_BROKERS = await kafka;
  out.SCHEMA_REGISTRY_URL = await registry;
  out.DATABASE_URL = await appDb;
  if (s3c) {
    out.S3_ENDPOINT = s3c.endpoint;
    out.S3_BUCKET = s3c.bucket;
    out.S3_REGION = s3c.region;
    if (s3c.accessKeyId) out.AWS_ACCESS_KEY_ID = s3c.accessKeyId;
    if (s3c.secretAccessKey) out.AWS_SECRET_ACCESS_KEY = s3c.secretAccessKey;
  }
  return { env: out, stop };
}
