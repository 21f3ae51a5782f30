// One app of `npm start`, kept running: every line it writes goes to its log file and its own messages to the
// terminal; its pid sits in a pid file while it runs (for an operator, and for the supervisor test); and when it dies
// without being asked to, it is started again as the restart policy says, or the supervisor is told to give up.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { inHost } from './services/process.ts';
import { afterCrash, noCrashes, restartPolicy, type CrashRecord } from './restart-policy.ts';

export interface AppSpec {
  name: string;
  /** The app's entry module, which Node runs as it is (stripping its types). */
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  pidFile: string;
  /** The network namespace to run in (a host of `npm run cluster`). */
  netns?: string;
}

export interface Supervision {
  /** A line for the terminal. */
  say(line: string): void;
  /** The app crashed too often (the message is out already): the whole stack should stop. */
  giveUp(): void;
  /** The least pino level of the app's own lines shown on the terminal (default 30, info; a cluster shows warnings). */
  minLevel?: number;
}

export interface SupervisedApp {
  /** The running process's pid (undefined between a crash and its restart). */
  readonly pid: number | undefined;
  /** Stops the app for good: no restart after this, a pending one is cancelled; SIGKILL after `deadlineMs`. */
  stop(deadlineMs: number): Promise<void>;
}

const PINO_WARN = 40;
const PINO_FATAL = 60;

export function superviseApp(app: AppSpec, supervision: Supervision): SupervisedApp {
  const log = createWriteStream(app.logFile, { flags: 'a' });
  let crashes: CrashRecord = noCrashes;
  let child: ChildProcess | undefined;
  let exited = Promise.resolve();
  let restart: NodeJS.Timeout | undefined;
  let stopping = false;

  // The supervisor's own lines go to the app's log as JSON too, so the file stays one JSON object a line.
  const note = (level: number, msg: string) => {
    supervision.say(`[${app.name}] ${msg}`);
    log.write(`${JSON.stringify({ level, time: new Date().toISOString(), service: 'supervisor', app: app.name, msg })}\n`);
  };

  const start = () => {
    const startedAt = Date.now();
    const [command, args] = inHost({ command: process.execPath, args: [app.entry], netns: app.netns });
    const running = spawn(command, args, {
      cwd: app.cwd,
      env: app.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = running;
    writeFileSync(app.pidFile, `${running.pid}\n`);
    for (const stream of [running.stdout!, running.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        log.write(`${line}\n`);
        const shown = terminalLine(line, supervision.minLevel ?? 30);
        if (shown !== undefined) supervision.say(`[${app.name}] ${shown}`);
      });
    }
    exited = new Promise((resolve) =>
      running.once('exit', (code, signal) => {
        rmSync(app.pidFile, { force: true });
        child = undefined;
        resolve();
        if (!stopping) crashed({ startedAt, diedAt: Date.now() }, signal ?? `code ${code}`);
      }),
    );
  };

  const crashed = (run: { startedAt: number; diedAt: number }, how: string) => {
    const verdict = afterCrash(crashes, run);
    crashes = verdict.record;
    const count = crashes.recent.length;
    const window = `${restartPolicy.windowMs / 60_000} min`;
    if (!verdict.restart) {
      note(PINO_FATAL, `exited unexpectedly (${how}): ${count} crashes in ${window}, giving up and stopping Folio; see ${app.logFile}`);
      supervision.giveUp();
      return;
    }
    note(PINO_WARN, `exited unexpectedly (${how}); restarting in ${verdict.delayMs / 1000} s (crash ${count} of ${restartPolicy.maxCrashes} in ${window})`);
    restart = setTimeout(start, verdict.delayMs);
  };

  start();
  return {
    get pid() {
      return child?.pid;
    },
    async stop(deadlineMs) {
      stopping = true;
      clearTimeout(restart);
      const current = child;
      if (!current) return;
      current.kill('SIGTERM');
      const deadline = setTimeout(() => current.kill('SIGKILL'), deadlineMs);
      await exited;
      clearTimeout(deadline);
    },
  };
}

/** What of an app's log line the terminal shows: the app's own messages, not per-request lines or Kafka chatter. */
function terminalLine(line: string, minLevel: number): string | undefined {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; req?: unknown; res?: unknown; component?: string; err?: { message?: string } };
    if (entry.req || entry.res) return undefined;
    // Kafka client chatter (retries while a broker starts) shows only when it is an error.
    if ((entry.level ?? 30) < (entry.component === 'kafka' ? 50 : minLevel)) return undefined;
    return `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  } catch {
    return line;
  }
}
