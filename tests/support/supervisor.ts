import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import { createDatabase, freePort } from '../../infra/services/index.ts';
import type { AppName } from './stack.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every supervisor started here; asked to stop if this process exits without doing it (a crashed test run). */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

/**
 * `npm start` itself — npm, the shell it runs the script in, `infra/bootstrap.mjs` and the supervisor
 * (`infra/stack.ts`) — over the test run's Kafka, registry and Postgres, with its own database, topics, port and state
 * folder. Through npm, because a signal sent to `npm start` must reach the supervisor across each of them.
 */
export class Supervisor {
  /** Everything it has printed so far. */
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  readonly child: ChildProcess;
  /** `FOLIO_STATE_DIR`; the stack keeps its logs, pid files and key under `dev/` in it. */
  readonly stateDir: string;
  readonly url: string;
  private constructor(
    child: ChildProcess,
    stateDir: string,
    url: string,
  ) {
    this.child = child;
    this.stateDir = stateDir;
    this.url = url;
    child.stdout!.setEncoding('utf8').on('data', (text: string) => (this.output += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (this.output += text));
    this.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  }

  static async start(): Promise<Supervisor> {
    const infra = inject('infra');
    const namespace = `s${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const stateDir = resolve(ROOT, '.folio/test/stacks', namespace);
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: {
        ...process.env,
        KAFKA_BROKERS: infra.KAFKA_BROKERS!,
        SCHEMA_REGISTRY_URL: infra.SCHEMA_REGISTRY_URL!,
        DATABASE_URL: await createDatabase(infra.DATABASE_URL!, `folio_${namespace}`),
        FOLIO_TOPIC_PREFIX: `${namespace}.`,
        FOLIO_TOPIC_PARTITIONS: '4',
        FOLIO_PORT: String(port),
        FOLIO_PUBLIC_URL: url,
        FOLIO_STATE_DIR: stateDir,
        // A killed consumer's partitions move on after 6 s (the broker's minimum) instead of 30.
        FOLIO_KAFKA_SESSION_TIMEOUT: '6',
        // A sync call waits through an app's restart here; under the whole suite's load a renderer has taken 27 s to
        // start again (two cores shared with a dozen other stacks), which says nothing of the restart itself.
        FOLIO_SYNC_TIMEOUT: '60',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.add(child);
    child.once('exit', () => started.delete(child));
    const supervisor = new Supervisor(child, stateDir, url);
    await supervisor.until(() => supervisor.output.includes('Folio is running'), 120_000, 'Folio to be running');
    return supervisor;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The development key the stack made. */
  get key(): string {
    return readFileSync(resolve(this.stateDir, 'dev/api-key'), 'utf8').trim();
  }

  /** The pid in the app's pid file: there while the app runs, gone while it is down. */
  pidOf(app: AppName): number | undefined {
    try {
      return Number(readFileSync(resolve(this.stateDir, `dev/pids/${app}.pid`), 'utf8'));
    } catch {
      return undefined;
    }
  }

  /** Waits until the app's pid file names a process other than `pid`: the app was started again. */
  successorOf(app: AppName, pid: number, timeoutMs = 30_000): Promise<number> {
    return this.until(() => {
      const now = this.pidOf(app);
      return now !== pid && now;
    }, timeoutMs, `the ${app} to be started again`);
  }

  logOf(app: AppName): string {
    return readFileSync(resolve(this.stateDir, `dev/logs/${app}.log`), 'utf8');
  }

  /**
   * Every live process of this stack, found by the state folder in its environment: the supervisor, its apps and
   * whatever they started (Chromium), even when orphaned.
   */
  processes(): number[] {
    const marker = `FOLIO_STATE_DIR=${this.stateDir}`;
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((v) => v.startsWith(marker));
        } catch {
          return false; // gone meanwhile
        }
      })
      .map(Number);
  }

  async request(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.url}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: text };
    }
  }

  /** Polls until the condition holds; fails at once, with what it printed, if the supervisor exits meanwhile. */
  async until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (!this.running) throw new Error(`the supervisor exited while waiting for ${what}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGTERM to `npm start` (as a process manager stops it), and wait for it to be gone. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill('SIGTERM');
    return this.exited;
  }
}
