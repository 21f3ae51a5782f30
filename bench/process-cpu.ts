import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time spent by this benchmark's own process tree, by role: the services it started (api, renderer, projector,
 * dispatcher: `apps/<name>`), the infrastructure (Kafka, the schema registry, Postgres), the browsers under them, and
 * the benchmark itself. On two shared cores a throughput figure is a CPU budget split between all of them, so the
 * CPU a job costs each one says where a target is lost. Only descendants of this process count: other work on the
 * machine does not. Linux only (/proc); elsewhere the snapshot is empty and the table says so.
 */
export type CpuSnapshot = Map<string, number>;

interface ProcessInfo {
  ppid: number;
  cpuMs: number;
  /** CPU of its children that ended and that it waited for (cutime + cstime). */
  reapedMs: number;
  args: string[];
}

/** The argument that names a process's role (`--cpu-role=kafkajs worker`): see `ownRole`. */
export const CPU_ROLE_ARG = '--cpu-role=';

const TICK_MS = 10; // USER_HZ is 100 on every Linux this runs on

function readProcesses(): Map<number, ProcessInfo> {
  const processes = new Map<number, ProcessInfo>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return processes;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: fields are counted after its closing one.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      processes.set(Number(entry), {
        ppid: Number(fields[1]),
        cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
        reapedMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
        args,
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return processes;
}

/** The role a process names for itself, or null when it takes its parent's. */
function ownRole(pid: number, info: ProcessInfo): string | null {
  if (pid === process.pid) return 'benchmark';
  // A process the benchmark names itself: `--cpu-role=<name>` among its arguments (bench/kafka-clients' members,
  // one role per client and part, so that each client's cost is its own).
  const named = info.args.find((a) => a.startsWith(CPU_ROLE_ARG))?.slice(CPU_ROLE_ARG.length);
  if (named) return named;
  const app = info.args.map((a) => /apps\/([a-z-]+)\/src\/(?:main|service)\.ts$/.exec(a)?.[1]).find(Boolean);
  if (app) return app;
  const command = info.args.join(' ');
  if (/java/.test(info.args[0] ?? '')) return /schema/i.test(command) ? 'schema registry' : /kafka/i.test(command) ? 'Kafka' : /s3proxy/i.test(command) ? 'S3Proxy' : 'java';
  if (/(^|\/)postgres$/.test(info.args[0] ?? '') || /^postgres:/.test(info.args[0] ?? '')) return 'Postgres';
  return null;
}

export function cpuSnapshot(): CpuSnapshot {
  const processes = readProcesses();
  const roles = new Map<number, string>();
  const roleOf = (pid: number): string | null => {
    if (roles.has(pid)) return roles.get(pid)!;
    const info = processes.get(pid);
    if (!info) return null;
    let role = ownRole(pid, info);
    if (role === null) {
      const parent = info.ppid > 0 ? roleOf(info.ppid) : null;
      if (parent === null) return null;
      // Chromium and other helpers take the role of what started them, named apart (a renderer's browser).
      const isChromium = /chrom/i.test(info.args[0] ?? '');
      role = isChromium && !parent.endsWith('Chromium') ? `${parent}: Chromium` : parent;
    }
    roles.set(pid, role);
    return role;
  };
  const snapshot: CpuSnapshot = new Map();
  for (const [pid, info] of processes) {
    const role = roleOf(pid);
    if (role === null) continue;
    // Chromium and Postgres fork processes that come and go within a measurement: a renderer process per tab (the pdf
    // renderer replaces each tab after 200 prints), a backend per connection, autovacuum workers. An ended process's
    // CPU leaves the sum of the living, so a delta over its end lost all it had spent since it started (measured:
    // bench/pdf-service's Chromium read 23.9 ms a document where it spends ~47). Its parent, of the same role, counts
    // it once it has waited for it. Only there: the benchmark reaps the apps and services it stops, each of a role of
    // its own.
    const reaped = role === 'Postgres' || role.endsWith('Chromium') ? info.reapedMs : 0;
    snapshot.set(role, (snapshot.get(role) ?? 0) + info.cpuMs + reaped);
  }
  return snapshot;
}

/** CPU milliseconds by role between two snapshots (roles that used none are left out). */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  const spent: CpuSnapshot = new Map();
  for (const [role, ms] of after) {
    const delta = ms - (before.get(role) ?? 0);
    if (delta > 0) spent.set(role, delta);
  }
  return spent;
}

/** Adds `more` into `total` (for measurements made of several slices). */
export function addCpu(total: CpuSnapshot, more: CpuSnapshot): void {
  for (const [role, ms] of more) total.set(role, (total.get(role) ?? 0) + ms);
}

/**
 * A Markdown table of CPU a unit of work (`unit`: "job", "document") by role, largest first, with the total and the
 * rate two cores could sustain at that cost.
 */
export function cpuTable(spent: CpuSnapshot, units: number, unit: string, cores = 2): string {
  if (spent.size === 0 || units === 0) return `CPU by process: not measured (no /proc here).`;
  // Processes that only idled (a browser never used in this phase) would show as 0.0 ms: left out, counted in the total.
  const rows = [...spent].sort((a, b) => b[1] - a[1]);
  const shown = rows.filter(([, ms]) => ms / units >= 0.05);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  const per = (ms: number) => `${(ms / units).toFixed(1)} ms`;
  return [
    `| process (with its children) | CPU a ${unit} |`,
    '|---|---|',
    ...shown.map(([role, ms]) => `| ${role} | ${per(ms)} |`),
    `| **all** | **${per(total)}** |`,
    '',
    `At ${per(total)} of CPU a ${unit}, ${cores} cores can do at most ${((cores * 1000 * units) / total).toFixed(0)} ${unit}s/s.`,
  ].join('\n');
}
