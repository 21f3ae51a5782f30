import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import postgres from 'postgres';
import { connect, migrateDatabase, type Database } from '@folio/db';
import { createKey, keySeal, type Plan } from '@folio/keys';
import { loadConfig } from '@folio/config';
import { createDatabase, freePort } from '../../infra/services/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every app process any stack started; killed if this process exits without stopping them (a crashed test run). */
const spawned = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
/**
 * What apps inherit from the test process: everything but the storage settings, so a stack uses S3 only when its
 * test says so (a developer's shell that names the shared S3 does not turn every stack's storage into S3).
 */
function inherited(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) delete env[name];
  return env;
}

export type AppName = 'api' | 'renderer' | 'projector' | 'dispatcher';

export interface AppProcess {
  name: AppName;
  /** The app's log file (JSON lines). */
  logFile: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGKILL: the process gets no chance to clean up. */
  kill(): Promise<void>;
  /** SIGTERM and wait: a graceful stop. */
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Where Kafka, the registry and Postgres are; by default the ones the test run's global setup started. */
  infra?: Record<string, string>;
  renderers?: number;
  env?: Record<string, string>;
  /** Apps to leave out at start (a test may start them itself). */
  without?: AppName[];
  /**
   * Ports for the metrics of the apps that serve them on a port of their own. Without one they serve none (the
   * suite's stacks run side by side, and each app's default port can be had once); the API's are on its own port.
   */
  metricsPorts?: Partial<Record<Exclude<AppName, 'api'>, number>>;
  /**
   * The module each app starts from: `main` as in production, or `service`, the app without its entry's
   * module-scopes hook (bench/start's baseline).
   */
  entry?: 'main' | 'service';
}

/**
 * The stacks the global setup starts once for the files that only talk to the API and read their own keys' rows:
 * they need no process of their own to kill, no environment of their own and no table to themselves, so they share
 * one stack instead of each paying for four processes and a browser. A file that kills apps, reads their logs, sets
 * its own environment or looks at rows beyond its keys' starts its own with `Stack.start`.
 * - `plain`: the defaults (private hosts refused).
 * - `loopback-public`: 127.0.0.1 stands in for the public web (test pages, receivers, the stack's own links).
 */
export const SHARED_STACKS = {
  plain: {},
  'loopback-public': { env: { FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } },
} satisfies Record<string, StackOptions>;
export type SharedStackName = keyof typeof SHARED_STACKS;
/** What a test process needs to reach a shared stack (provided by the global setup). */
export interface SharedStackAddress {
  namespace: string;
  env: Record<string, string>;
  url: string;
}

/**
 * A Folio stack of its own for one test file: its own database, its own topics (a prefix), its own storage folder
 * and API port, over the Kafka, registry, Postgres and S3 that the global setup started. Apps run as real child
 * processes, so tests can kill them.
 */
export class Stack {
  readonly apps: AppProcess[] = [];
  readonly namespace: string;
  readonly env: Record<string, string>;
  readonly url: string;
  readonly database: Database;
  /** False for a shared stack: its apps belong to the global setup, which stops them. */
  private readonly owned: boolean;
  private readonly metricsPorts: StackOptions['metricsPorts'];
  private readonly entry: NonNullable<StackOptions['entry']>;
  private constructor(
    namespace: string,
    env: Record<string, string>,
    url: string,
    database: Database,
    owned = true,
    metricsPorts: StackOptions['metricsPorts'] = {},
    entry: StackOptions['entry'] = 'main',
  ) {
    this.namespace = namespace;
    this.env = env;
    this.url = url;
    this.database = database;
    this.owned = owned;
    this.metricsPorts = metricsPorts;
    this.entry = entry;
  }

  /** One of the stacks the global setup started for files that can share (SHARED_STACKS). */
  static shared(name: SharedStackName): Stack {
    const { namespace, env, url } = inject('sharedStacks')[name];
    return new Stack(namespace, env, url, connect(env.DATABASE_URL!, { max: 4 }), false);
  }

  /** Where this stack is, for test processes to reach it with `Stack.shared`. */
  get address(): SharedStackAddress {
    return { namespace: this.namespace, env: this.env, url: this.url };
  }

  static async start(options: StackOptions = {}): Promise<Stack> {
    const infra = options.infra ?? inject('infra');
    const namespace = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const databaseUrl = await createDatabase(infra.DATABASE_URL!, `folio_${namespace}`);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      KAFKA_BROKERS: infra.KAFKA_BROKERS!,
      SCHEMA_REGISTRY_URL: infra.SCHEMA_REGISTRY_URL!,
      DATABASE_URL: databaseUrl,
      FOLIO_TOPIC_PREFIX: `${namespace}.`,
      FOLIO_TOPIC_PARTITIONS: '4',
      FOLIO_PORT: String(port),
      FOLIO_PUBLIC_URL: url,
      FOLIO_STATE_DIR: resolve(ROOT, '.folio/test/stacks', namespace),
      FOLIO_LOG_LEVEL: 'info',
      // Fail over quickly when a test kills a consumer (the broker's minimum is 6 s).
      FOLIO_KAFKA_SESSION_TIMEOUT: '6',
      // Tests poll jobs in tight loops with one key: budgets a hundred times the interface's, except where a test
      // is about the limits themselves (it sets 1).
      FOLIO_RATE_LIMIT_SCALE: '100',
      ...options.env,
    };
    await migrateDatabase(databaseUrl);
    const stack = new Stack(namespace, env, url, connect(databaseUrl, { max: 4 }), true, options.metricsPorts, options.entry);
    // A stack that never gets ready is stopped before the error goes up: its apps would otherwise outlive the test
    // (the exit hook above runs only when this process ends normally) and slow every stack started after it.
    try {
      const without = new Set(options.without ?? []);
      if (!without.has('projector')) stack.spawn('projector');
      if (!without.has('renderer')) for (let i = 0; i < (options.renderers ?? 1); i++) stack.spawn('renderer');
      if (!without.has('dispatcher')) stack.spawn('dispatcher');
      if (!without.has('api')) {
        stack.spawn('api');
        // Ready means jobs flow, so a stack without its consumers is never ready: then the API being up is enough.
        if (without.has('projector') || without.has('renderer') || without.has('dispatcher')) await stack.waitReady(60_000, '/healthz');
        else await stack.waitReady();
      }
      // Renderers start a browser and worker threads: wait until they consume, so a test's clock starts with them.
      // A stack quieter than info says nothing of it; then readiness (every group has a member) is the proof.
      const quiet = ['warn', 'error', 'fatal', 'silent'].includes(env.FOLIO_LOG_LEVEL!);
      if (!quiet) await Promise.all(stack.apps.map((app) => stack.waitConsuming(app)));
    } catch (error) {
      await Promise.all(stack.apps.map((app) => app.kill()));
      await stack.database.close();
      throw error;
    }
    return stack;
  }

  get sql(): postgres.Sql {
    return this.database.sql;
  }

  spawn(name: AppName, env: Record<string, string> = {}): AppProcess {
    const logDir = resolve(this.env.FOLIO_STATE_DIR!, 'logs');
    mkdirSync(logDir, { recursive: true });
    const logFile = resolve(logDir, `${name}-${this.apps.length}.log`);
    const log = createWriteStream(logFile);
    const metricsPort = name === 'api' ? {} : { FOLIO_METRICS_PORT: String(this.metricsPorts?.[name] ?? 'off') };
    const child = spawn(process.execPath, [resolve(ROOT, `apps/${name}/src/${this.entry}.ts`)], {
      cwd: ROOT,
      env: { ...inherited(), ...metricsPort, ...this.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.add(child);
    child.once('exit', () => spawned.delete(child));
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const app: AppProcess = {
      name,
      logFile,
      child,
      exited,
      kill: async () => {
        child.kill('SIGKILL');
        await exited;
      },
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
    this.apps.push(app);
    return app;
  }

  running(name: AppName): AppProcess[] {
    return this.apps.filter((a) => a.name === name && a.child.exitCode === null && a.child.signalCode === null);
  }

  /** Waits until a renderer, projector or dispatcher says it is consuming (the API: at once). */
  async waitConsuming(app: AppProcess, timeoutMs = 90_000): Promise<void> {
    if (app.name === 'api') return;
    const marker = app.name === 'dispatcher' ? '"msg":"dispatcher delivering callbacks"' : `"msg":"${app.name} consuming"`;
    await this.until(async () => (await readFile(app.logFile, 'utf8').catch(() => '')).includes(marker), timeoutMs, `${app.name} to consume`);
  }

  async waitReady(timeoutMs = 60_000, probe: '/readyz' | '/healthz' = '/readyz'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const response = await fetch(`${this.url}${probe}`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`API at ${this.url} not ready after ${timeoutMs} ms (logs: ${this.env.FOLIO_STATE_DIR}/logs)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** A new API key; `documentLimit` is the key's own limit (`folio keys create --limit N`). */
  async createKey(plan: Plan = 'free', documentLimit: number | null = null): Promise<string> {
    return (await createKey(this.database.db, keySeal(loadConfig(this.env)), plan, documentLimit)).key;
  }

  async request(
    method: string,
    path: string,
    options: { key?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; headers: Headers; body: any; text: string }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** Polls a job until it is final (or the time runs out). */
  async waitForJob(key: string, jobId: string, timeoutMs = 60_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { status, body, headers } = await this.request('GET', `/v2/jobs/${jobId}`, { key });
      if (status === 200 && (body.status === 'succeeded' || body.status === 'failed')) return body;
      if (status === 429) await new Promise((r) => setTimeout(r, Number(headers.get('retry-after') ?? 1) * 1000));
      if (Date.now() > deadline) throw new Error(`job ${jobId} not final after ${timeoutMs} ms: ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits until a condition on the read models holds. */
  async until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    if (this.owned) await Promise.all(this.apps.map((a) => a.stop()));
    await this.database.close();
  }
}
