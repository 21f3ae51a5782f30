// Shared process supervision for the local services: spawn in an own process group with output to a log file,
// pid file + stale-leftover cleanup, wait-until-ready with a log tail on failure, graceful stop, and a last-resort
// SIGKILL on process exit for everything still running.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunningService {
  name: string;
  pid: number;
  /** Graceful stop (the service's stop signal), wait for exit, SIGKILL of the process group after a timeout. */
  stop(): Promise<void>;
  /** SIGKILL the whole process group now. */
  kill(): void;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export interface SupervisedService extends RunningService {
  logFile: string;
  /** Last lines of this run's log. */
  logTail(lines?: number): string;
  /** True once the process has exited. */
  readonly hasExited: boolean;
  readonly exitCode: number | null;
}

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  /** Holds `<name>.log` and `<name>.pid`. */
  dataDir: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /**
   * A network namespace (`ip netns`) to run in, as a host of `npm run cluster`. `ip netns exec` and `setpriv` each
   * exec the next program, so the pid is the service's own (a kill -9 reaches it, not a wrapper).
   */
  netns?: string;
  /** Signal for a graceful stop (default SIGTERM; Postgres wants SIGINT = fast shutdown). */
  stopSignal?: NodeJS.Signals;
  /** Time to wait for a graceful stop before SIGKILL (default 30 s). */
  stopTimeoutMs?: number;
  /** Substring of /proc/<pid>/cmdline that identifies a leftover of this very service (default: dataDir). */
  cmdlineMarker?: string;
  /** TCP ports on 127.0.0.1 that must be free before spawning; waited for (restart after stop) then an error. */
  ports?: number[];
  portWaitMs?: number;
}

const running: SupervisedService[] = [];
const TIMEOUT = Symbol('timeout');

/** `p`, or TIMEOUT after `ms`; the timer is cleared either way (so it never holds the event loop open). */
async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), ms);
    })]);
  } finally {
    clearTimeout(timer);
  }
}
const EXIT_HOOK = Symbol.for('folio.infra.exitHook');

function installExitHook(): void {
  const g = globalThis as unknown as Record<symbol, unknown>;
  if (g[EXIT_HOOK]) return;
  g[EXIT_HOOK] = true;
  // Last resort, synchronous: whatever is still running when this process exits gets SIGKILLed.
  process.on('exit', () => {
    for (const svc of running) {
      if (!svc.hasExited) killGroup(svc.pid, 'SIGKILL');
    }
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

/** Is `pid` a live (non-zombie) process? */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/**
 * If `pidFile` names a live process whose command line contains `marker`, stop it (gracefully, then SIGKILL) — a
 * leftover of a supervisor that died without stopping it. The pid file also names that supervisor: while it is still
 * alive the service is not a leftover but in use, and this throws instead of killing it.
 */
export async function killStale(
  pidFile: string,
  marker: string,
  signal: NodeJS.Signals = 'SIGTERM',
  timeoutMs = 15_000,
): Promise<boolean> {
  let pid: number;
  let owner: number;
  try {
    [pid = NaN, owner = NaN] = (await fsp.readFile(pidFile, 'utf8')).trim().split(/\s+/).map((x) => Number.parseInt(x, 10));
  } catch {
    return false;
  }
  let killed = false;
  if (Number.isInteger(pid) && pid > 1 && isAlive(pid) && cmdline(pid).includes(marker)) {
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner) && /node/.test(cmdline(owner))) {
      throw new Error(`${path.dirname(pidFile)} is in use: its service (pid ${pid}) belongs to a running supervisor ` +
        `(pid ${owner}: ${cmdline(owner).slice(0, 120)}). Stop that one first, or use another state directory.`);
    }
    killed = true;
    try {
      process.kill(pid, signal);
    } catch {
      /* raced */
    }
    if (!(await waitGone(pid, timeoutMs))) {
      killGroup(pid, 'SIGKILL');
      await waitGone(pid, 5_000);
    }
    killGroup(pid, 'SIGKILL'); // children left in the group
  }
  await fsp.rm(pidFile, { force: true });
  return killed;
}

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * A TCP port that is free on 127.0.0.1 right now, for a server another process will start on it moments later. It is
 * taken outside the kernel's ephemeral range (`ip_local_port_range`): a port from that range (what listening on port 0
 * gives) can meanwhile become the local end of any outgoing connection on the machine — a Kafka client's, a Postgres
 * pool's — and the server then fails with EADDRINUSE (a test stack's API did, in a fresh-clone run of stop 50). Ports
 * from FREE_PORTS, which no connection takes by itself, are picked at random, probed, and never handed out twice by
 * this process; when the ephemeral range covers them all, the kernel chooses, as before.
 */
export async function freePort(): Promise<number> {
  candidates ??= portsOutside(ephemeralRange());
  for (let attempt = 0; candidates.length > 0 && attempt < 100; attempt++) {
    const port = candidates[Math.floor(Math.random() * candidates.length)]!;
    if (handedOut.has(port) || !(await isPortFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  return kernelPort();
}

/** Where freePort looks first: below every fixed port of the development, test and benchmark stacks (15432 up). */
export const FREE_PORTS = { first: 10_000, last: 14_999 };

const handedOut = new Set<number>();
/** FREE_PORTS outside the ephemeral range, read once: the range does not change while a process runs. */
let candidates: number[] | undefined;

/**
 * Ports `fetch` refuses to connect to, whatever listens there (the Fetch standard's "bad port" list, which Node's
 * undici and Chromium both enforce): a test's registry on 10080 was up in 4 s, yet every readiness probe failed with
 * "bad port" until the hook timed out (CI, stop 62). process.unit.test.ts checks this list against the running Node.
 * https://fetch.spec.whatwg.org/#port-blocking
 */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111,
  113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548,
  554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566,
  6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The ports of FREE_PORTS outside `range` that `fetch` can reach. */
export function portsOutside(range: { first: number; last: number } | null): number[] {
  const ports: number[] = [];
  for (let port = FREE_PORTS.first; port <= FREE_PORTS.last; port++) {
    if ((!range || port < range.first || port > range.last) && !FETCH_BAD_PORTS.has(port)) ports.push(port);
  }
  return ports;
}

/** The kernel's range for the local ports of outgoing connections (null where it cannot be read). */
function ephemeralRange(): { first: number; last: number } | null {
  try {
    const [first, last] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(first) && Number.isInteger(last) ? { first: first!, last: last! } : null;
  } catch {
    return null;
  }
}

/** A port the kernel chooses (from its ephemeral range), one `fetch` can reach. */
async function kernelPort(): Promise<number> {
  for (;;) {
    const port = await anyKernelPort();
    if (!FETCH_BAD_PORTS.has(port)) return port;
  }
}

function anyKernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForPortFree(port: number, timeoutMs: number, what = 'service'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await isPortFree(port))) {
    if (Date.now() >= deadline) {
      throw new Error(`${what}: port 127.0.0.1:${port} is still in use after ${Math.round(timeoutMs / 1000)} s ` +
        `(another process holds it; find it with \`ss -ltnp 'sport = :${port}'\`)`);
    }
    await sleep(200);
  }
}

/** Last `lines` lines of a text file (reads at most the last 64 KiB). */
export function tailFile(file: string, lines = 40): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const len = Math.min(size, 64 * 1024);
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, size - len);
      return buf.toString('utf8').split('\n').slice(-lines - 1).join('\n').trimEnd();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '(no log)';
  }
}

/**
 * Spawns a long-running service: own process group (detached), stdout+stderr to `<dataDir>/<name>.log` (the previous
 * run's log is kept as `.log.1`), pid in `<dataDir>/<name>.pid`. A leftover from a crashed supervisor is killed first.
 */
export async function spawnService(spec: ServiceSpec): Promise<SupervisedService> {
  installExitHook();
  const { name, dataDir } = spec;
  const stopSignal = spec.stopSignal ?? 'SIGTERM';
  const stopTimeoutMs = spec.stopTimeoutMs ?? 30_000;
  await fsp.mkdir(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, `${name}.pid`);
  const logFile = path.join(dataDir, `${name}.log`);

  await killStale(pidFile, spec.cmdlineMarker ?? dataDir, stopSignal, stopTimeoutMs);
  // Ports are checked on this host's loopback; a service in a namespace of its own has that namespace's ports.
  if (!spec.netns) for (const port of spec.ports ?? []) await waitForPortFree(port, spec.portWaitMs ?? 20_000, name);
  const [command, args] = inHost(spec);

  await fsp.rename(logFile, `${logFile}.1`).catch(() => undefined);
  const fd = fs.openSync(logFile, 'a');
  fs.writeSync(fd, `# ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const child = spawn(command, args, {
    cwd: spec.cwd ?? dataDir,
    env: spec.env ?? process.env,
    detached: true,
    stdio: ['ignore', fd, fd],
    ...(!spec.netns && spec.uid !== undefined ? { uid: spec.uid } : {}),
    ...(!spec.netns && spec.gid !== undefined ? { gid: spec.gid } : {}),
  });
  fs.closeSync(fd);
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (err) {
    throw new Error(`${name}: cannot start ${spec.command}: ${(err as Error).message}`);
  }
  const pid = child.pid!;
  await fsp.writeFile(pidFile, `${pid} ${process.pid}\n`); // service pid, supervisor pid

  let hasExited = false;
  let exitCode: number | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      hasExited = true;
      exitCode = code;
      const i = running.indexOf(svc);
      if (i >= 0) running.splice(i, 1);
      try {
        if (fs.readFileSync(pidFile, 'utf8').split(/\s+/)[0] === String(pid)) fs.rmSync(pidFile, { force: true });
      } catch {
        /* already gone */
      }
      resolve(code);
    });
  });

  let stopping: Promise<void> | undefined;
  const svc: SupervisedService = {
    name,
    pid,
    exited,
    logFile,
    get hasExited() {
      return hasExited;
    },
    get exitCode() {
      return exitCode;
    },
    logTail: (lines = 40) => tailFile(logFile, lines),
    kill() {
      if (!hasExited) killGroup(pid, 'SIGKILL');
    },
    stop() {
      stopping ??= (async () => {
        if (!hasExited) {
          try {
            process.kill(pid, stopSignal);
          } catch {
            /* already gone */
          }
          if ((await withTimeout(exited, stopTimeoutMs)) === TIMEOUT) killGroup(pid, 'SIGKILL');
          await exited;
        }
        killGroup(pid, 'SIGKILL'); // leftovers in the group (e.g. Postgres backends)
      })();
      return stopping;
    },
  };
  running.push(svc);
  return svc;
}

/**
 * The command line that runs `spec` where it belongs: as given, or inside its network namespace. Entering a namespace
 * needs root, so a service that runs as another user drops to it after entering (setpriv, from util-linux).
 */
export function inHost(spec: Pick<ServiceSpec, 'command' | 'args' | 'netns' | 'uid' | 'gid'>): [string, string[]] {
  if (!spec.netns) return [spec.command, spec.args];
  const asUser = spec.uid === undefined ? [] : ['setpriv', `--reuid=${spec.uid}`, `--regid=${spec.gid ?? spec.uid}`, '--clear-groups', '--'];
  return ['ip', ['netns', 'exec', spec.netns, ...asUser, spec.command, ...spec.args]];
}

/** Thrown by a readiness probe when retrying cannot help (e.g. the server rejects our credentials). */
export class NotRetryableError extends Error {
  override name = 'NotRetryableError';
}

export interface ReadyOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Per-attempt limit for the probe (default 5 s). */
  probeTimeoutMs?: number;
}

/**
 * Polls `probe` until it resolves true. Fails early when the process exits or the probe throws NotRetryableError; on
 * timeout the service is killed.
 * Errors include the tail of the service log.
 */
export async function waitUntilReady(
  svc: SupervisedService,
  probe: () => Promise<boolean>,
  opts: ReadyOptions,
): Promise<void> {
  const started = Date.now();
  const deadline = started + opts.timeoutMs;
  let lastError = '';
  for (;;) {
    if (svc.hasExited) {
      throw new Error(`${svc.name} exited (code ${svc.exitCode}) before it was ready. ` +
        `Last lines of ${svc.logFile}:\n${svc.logTail()}`);
    }
    try {
      const ok = await withTimeout(probe(), opts.probeTimeoutMs ?? 5_000);
      if (ok === true) return;
      lastError = ok === TIMEOUT ? 'probe timed out' : 'not ready yet';
    } catch (err) {
      // fetch's own message is only "fetch failed"; why is in its cause (ECONNREFUSED, bad port).
      const cause = (err as Error).cause instanceof Error ? ` (${((err as Error).cause as Error).message})` : '';
      lastError = ((err as Error).message || String(err)) + cause;
      if (err instanceof NotRetryableError) {
        svc.kill();
        await svc.exited;
        throw new Error(`${svc.name}: ${lastError}. Last lines of ${svc.logFile}:\n${svc.logTail()}`);
      }
    }
    if (Date.now() >= deadline) {
      svc.kill();
      await svc.exited;
      throw new Error(`${svc.name} not ready after ${Math.round(opts.timeoutMs / 1000)} s (last probe: ${lastError}). ` +
        `Last lines of ${svc.logFile}:\n${svc.logTail()}`);
    }
    await sleep(opts.intervalMs ?? 250);
  }
}

/** Runs `ready` for a freshly spawned service; if it throws, the service is killed before rethrowing. */
export async function ensureReady(svc: SupervisedService, ready: () => Promise<void>): Promise<void> {
  try {
    await ready();
  } catch (err) {
    svc.kill();
    await svc.exited;
    throw err;
  }
}
