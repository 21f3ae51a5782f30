import { resolve } from 'node:path';

/**
 * Folio's configuration: every knob read once from the environment, validated and typed.
 * Each knob has a default; the README's table lists them all (keep it in step with this file).
 */
export interface Config {
  port: number;
  host: string;
  /**
   * FOLIO_METRICS_PORT: where this process serves `GET /metrics`. A port of its own; `off`: nowhere; unset: the app's
   * default (the API on its public port, every other app on its own default port).
   */
  metricsPort: number | 'off' | null;
  /** FOLIO_METRICS_HOST: the address a metrics port of its own listens on (FOLIO_HOST by default). */
  metricsHost: string;
  publicUrl: string;
  stateDir: string;
  logLevel: string;

  kafkaBrokers: string[];
  schemaRegistryUrl: string;
  databaseUrl: string;
  topicPrefix: string;
  topicPartitions: number;
  /** Replicas of each topic Folio creates; null: as many as the cluster has brokers, at most 3 (`topicDurability`). */
  topicReplication: number | null;
  /** min.insync.replicas of Folio's topics; null: 2 where there are two replicas or more, else 1. */
  topicMinInsync: number | null;
  /** Start although one lost broker could lose an acknowledged event (min.insync 1 on a cluster). */
  allowUnsafeTopics: boolean;
  /** How long a silent consumer keeps its partitions before the group hands them to another member. */
  kafkaSessionTimeoutMs: number;

  storage:
    | { kind: 'local'; dir: string; secret: string | undefined }
    | {
        kind: 's3';
        endpoint: string;
        bucket: string;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
      };

  allowPrivateHosts: string[];
  /** Web origins (`https://app.example.com`, or `*`) whose pages may call the API from a browser. */
  corsOrigins: string[];
  /** Where quota_exceeded sends a free key that has used its month (`upgrade_url`). */
  upgradeUrl: string;
  /** Every per-key rate limit multiplied by this (1: the interface's limits). */
  rateLimitScale: number;
  /** How often expired jobs, files and claims are deleted. */
  sweepIntervalMs: number;
  syncTimeoutMs: number;
  jobTtlSeconds: number;
  fileTtlSeconds: number;
  /** How long Kafka keeps the job events (topic `retention.ms`): -1, the default, keeps them forever. */
  logRetentionMs: number;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  /** Callbacks one dispatcher process sends at once, and at most this many to any one receiver host. */
  webhookConcurrency: number;
  webhookHostConcurrency: number;
  /**
   * The server secret that seals each API key's copy kept for signing callbacks (FOLIO_KEY_SECRET); undefined: one
   * generated once and kept in the state folder.
   */
  keySecret: string | undefined;
  /** Where the generated secret is kept when FOLIO_KEY_SECRET is not set. */
  keySecretFile: string;
  /** Inputs and results larger than this travel by claim check (object storage), never inside an event. */
  claimCheckBytes: number;
  renderConcurrency: number;
  /** How long a conversion may take in a worker thread before the worker is replaced and the job fails (render_timeout). */
  conversionBudgetMs: number;
  renderAttempts: number;
  chromiumPath: string | undefined;
  /** Memory all of Chromium's processes may hold before tabs are replaced (MiB). */
  chromiumMemoryMb: number;
  /** Fault injection for the crash and poison tests only; empty in every real deployment. */
  faults: Faults;
}

export interface Faults {
  /** Milliseconds every conversion is held back before it runs (so a test can kill a renderer mid-job). */
  renderDelayMs: number;
  /** Conversions whose input contains this marker throw (a poison job). */
  throwOnMarker: string | undefined;
  /** A renderer whose conversion input contains this marker kills its own process (a job that crashes renderers). */
  crashOnMarker: string | undefined;
  /**
   * The API writes a JobQueued whose input contains this marker and then reports the write's outcome as unknown, once
   * per event (a write cut off while the broker went away, which the broker had appended).
   */
  unconfirmedOnMarker: string | undefined;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new Reader(env, problems);

  const port = read.integer('FOLIO_PORT', 8080, { min: 0, max: 65535 });
  const host = read.string('FOLIO_HOST', '127.0.0.1');
  const stateDir = resolve(read.string('FOLIO_STATE_DIR', '.folio'));
  const s3Endpoint = read.optional('S3_ENDPOINT');
  const s3Bucket = read.optional('S3_BUCKET');
  if ((s3Endpoint === undefined) !== (s3Bucket === undefined)) {
    problems.push('S3_ENDPOINT and S3_BUCKET must be set together');
  }

  const config: Config = {
    port,
    host,
    metricsPort: read.optional('FOLIO_METRICS_PORT')?.toLowerCase() === 'off' ? 'off' : read.optionalInteger('FOLIO_METRICS_PORT', { min: 0, max: 65535 }),
    metricsHost: read.string('FOLIO_METRICS_HOST', host),
    publicUrl: read.url('FOLIO_PUBLIC_URL', `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    stateDir,
    logLevel: read.string('FOLIO_LOG_LEVEL', 'info'),

    kafkaBrokers: read.list('KAFKA_BROKERS', ['127.0.0.1:19092']),
    schemaRegistryUrl: read.url('SCHEMA_REGISTRY_URL', 'http://127.0.0.1:18081/apis/ccompat/v7'),
    databaseUrl: read.string('DATABASE_URL', 'postgres://postgres:postgres@127.0.0.1:15432/folio'),
    topicPrefix: read.string('FOLIO_TOPIC_PREFIX', ''),
    topicPartitions: read.integer('FOLIO_TOPIC_PARTITIONS', 12, { min: 1, max: 1000 }),
    topicReplication: read.optionalInteger('FOLIO_TOPIC_REPLICATION', { min: 1, max: 32 }),
    topicMinInsync: read.optionalInteger('FOLIO_TOPIC_MIN_INSYNC', { min: 1, max: 32 }),
    allowUnsafeTopics: read.flag('FOLIO_ALLOW_UNSAFE_TOPICS'),
    kafkaSessionTimeoutMs: read.seconds('FOLIO_KAFKA_SESSION_TIMEOUT', 30),

    storage:
      s3Endpoint && s3Bucket
        ? {
            kind: 's3',
            endpoint: s3Endpoint,
            bucket: s3Bucket,
            region: read.string('S3_REGION', 'us-east-1'),
            accessKeyId: read.optional('AWS_ACCESS_KEY_ID'),
            secretAccessKey: read.optional('AWS_SECRET_ACCESS_KEY'),
          }
        : {
            kind: 'local',
            dir: resolve(read.string('FOLIO_STORAGE_DIR', resolve(stateDir, 'storage'))),
            secret: read.optional('FOLIO_FILE_SECRET'),
          },

    allowPrivateHosts: read.list('FOLIO_ALLOW_PRIVATE_HOSTS', []),
    corsOrigins: read.list('FOLIO_CORS_ORIGINS', []).map((origin) => {
      if (origin === '*') return origin;
      const parsed = URL.canParse(origin) ? new URL(origin) : null;
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/+$/, '')) {
        problems.push(`FOLIO_CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path), nor *`);
      }
      return parsed?.origin ?? origin;
    }),
    upgradeUrl: read.url('FOLIO_UPGRADE_URL', `${read.url('FOLIO_PUBLIC_URL', `http://127.0.0.1:${port}`).replace(/\/+$/, '')}/docs#plans`),
    rateLimitScale: read.number('FOLIO_RATE_LIMIT_SCALE', 1, { min: 0.001, max: 1_000_000 }),
    syncTimeoutMs: read.seconds('FOLIO_SYNC_TIMEOUT', 27),
    jobTtlSeconds: read.integer('FOLIO_JOB_TTL', 172800, { min: 1 }),
    logRetentionMs: read.retentionDays('FOLIO_LOG_RETENTION_DAYS'),
    fileTtlSeconds: read.integer('FOLIO_FILE_TTL', 172800, { min: 1, max: 604800 }),
    sweepIntervalMs: read.seconds('FOLIO_SWEEP_INTERVAL', 300),
    webhookRetryDelaysMs: read.list('FOLIO_WEBHOOK_RETRY_DELAYS', ['2', '10', '60']).map((s) => {
      const n = Number(s);
      if (!Number.isFinite(n) || n < 0) problems.push(`FOLIO_WEBHOOK_RETRY_DELAYS: "${s}" is not a number of seconds`);
      return Math.round(n * 1000);
    }),
    webhookTimeoutMs: read.seconds('FOLIO_WEBHOOK_TIMEOUT', 10),
    webhookConcurrency: read.integer('FOLIO_WEBHOOK_CONCURRENCY', 64, { min: 1, max: 4096 }),
    webhookHostConcurrency: read.integer('FOLIO_WEBHOOK_HOST_CONCURRENCY', 8, { min: 1, max: 4096 }),
    keySecret: read.optional('FOLIO_KEY_SECRET'),
    keySecretFile: resolve(read.string('FOLIO_KEY_SECRET_FILE', resolve(stateDir, 'key-secret'))),
    claimCheckBytes: read.integer('FOLIO_CLAIM_CHECK_BYTES', 64 * 1024, { min: 0, max: 512 * 1024 }),
    renderConcurrency: read.integer('FOLIO_RENDER_CONCURRENCY', 4, { min: 1, max: 64 }),
    conversionBudgetMs: read.integer('FOLIO_CONVERSION_BUDGET_MS', 60_000, { min: 100, max: 600_000 }),
    renderAttempts: read.integer('FOLIO_RENDER_ATTEMPTS', 3, { min: 1, max: 10 }),
    chromiumMemoryMb: read.integer('FOLIO_CHROMIUM_MEMORY_MB', 1024, { min: 64, max: 65536 }),
    chromiumPath: read.optional('CHROMIUM_PATH'),
    faults: {
      renderDelayMs: read.integer('FOLIO_FAULT_RENDER_DELAY_MS', 0, { min: 0 }),
      throwOnMarker: read.optional('FOLIO_FAULT_THROW_ON'),
      crashOnMarker: read.optional('FOLIO_FAULT_CRASH_ON'),
      unconfirmedOnMarker: read.optional('FOLIO_FAULT_UNCONFIRMED_ON'),
    },
  };

  // A job still readable must be rebuildable from the log: its events may not age out before it does.
  if (config.logRetentionMs !== -1 && config.logRetentionMs < config.jobTtlSeconds * 1000) {
    problems.push(`FOLIO_LOG_RETENTION_DAYS: the log must keep events at least as long as a job is readable (FOLIO_JOB_TTL, ${config.jobTtlSeconds} s)`);
  }
  if (config.keySecret !== undefined && config.keySecret.length < 32) {
    problems.push('FOLIO_KEY_SECRET: must be at least 32 characters (it seals the API keys that sign callbacks)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

class Reader {
  private readonly env: Env;
  private readonly problems: string[];
  constructor(
    env: Env,
    problems: string[],
  ) {
    this.env = env;
    this.problems = problems;
  }

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  list(name: string, fallback: string[]): string[] {
    const value = this.optional(name);
    if (value === undefined) return fallback;
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }

  url(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    try {
      new URL(value);
    } catch {
      this.problems.push(`${name}: "${value}" is not a URL`);
    }
    return value;
  }

  integer(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n)) {
      this.problems.push(`${name}: "${raw}" is not a whole number`);
      return fallback;
    }
    if ((range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max)) {
      this.problems.push(`${name}: ${n} is outside ${range.min ?? '-∞'}..${range.max ?? '∞'}`);
    }
    return n;
  }

  /** A whole number, or null when not set. */
  optionalInteger(name: string, range: { min: number; max: number }): number | null {
    return this.optional(name) === undefined ? null : this.integer(name, range.min, range);
  }

  /** true or false (also 1/0, yes/no); false when not set. */
  flag(name: string): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return false;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (!['false', '0', 'no'].includes(raw)) this.problems.push(`${name}: "${raw}" is neither true nor false`);
    return false;
  }

  /** A positive number, fractions allowed. */
  number(name: string, fallback: number, range: { min: number; max: number }): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < range.min || n > range.max) {
      this.problems.push(`${name}: "${raw}" is not a number in ${range.min}..${range.max}`);
      return fallback;
    }
    return n;
  }

  /** Whole days as milliseconds, or `forever` (the default) as -1, Kafka's "no time limit". */
  retentionDays(name: string): number {
    const raw = this.optional(name);
    if (raw === undefined || raw === 'forever') return -1;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) {
      this.problems.push(`${name}: "${raw}" is neither a whole number of days nor "forever"`);
      return -1;
    }
    return n * 86_400_000;
  }

  /** Seconds (fractions allowed) returned as milliseconds. */
  seconds(name: string, fallback: number): number {
    const raw = this.optional(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n <= 0) {
      this.problems.push(`${name}: "${raw}" is not a positive number of seconds`);
      return fallback * 1000;
    }
    return Math.round(n * 1000);
  }
}
