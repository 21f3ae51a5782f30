// npm run bench:start — what it costs to start a stack: the time until every app consumes and the CPU each process
// spent on the way, with each app started from its entry (`main.ts`, which registers @folio/module-scopes first)
// and, as the baseline of the same run, from `service.ts` (the same app without the hook). A start is paid by every
// test file with a stack of its own, by every restart after a crash, and by every pod a deployment rolls.
// BENCH_ROUNDS (default 4) starts of each, alternating which goes first.
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_PORTS } from '../ports.ts';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { cpuSnapshot, cpuSpent, type CpuSnapshot } from '../process-cpu.ts';
import { percentile } from '../stats.ts';
import { runStamp, writeSection } from '../docs-section.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ENTRIES = ['service', 'main'] as const;
type Entry = (typeof ENTRIES)[number];

const infra = await startLocalInfra({
  stateDir: resolve(import.meta.dirname, '../../.folio/bench'),
  ports: BENCH_PORTS,
  s3: false,
  log: (line) => process.stderr.write(`[infra] ${line}\n`),
});

const starts: Record<Entry, { readyMs: number; cpu: CpuSnapshot }[]> = { service: [], main: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of round % 2 === 0 ? ENTRIES : [...ENTRIES].reverse()) {
      const before = cpuSnapshot();
      const t0 = performance.now();
      const stack = await Stack.start({ infra: infra.env, entry });
      const readyMs = performance.now() - t0;
      const cpu = cpuSpent(before, cpuSnapshot());
      await stack.stop();
      starts[entry].push({ readyMs, cpu });
      process.stderr.write(`round ${round + 1}, ${entry}.ts: ready in ${(readyMs / 1000).toFixed(1)} s\n`);
      await sleep(1000); // the stopped apps' sockets and the broker's group bookkeeping settle
    }
  }
} finally {
  await infra.stop();
}

const median = (values: number[]) => percentile(values, 50);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const roles = ['api', 'renderer', 'projector', 'dispatcher', 'renderer: Chromium'];
const cpuOf = (entry: Entry, role: string) => median(starts[entry].map((s) => s.cpu.get(role) ?? 0));
const appsOf = (entry: Entry) => median(starts[entry].map((s) => roles.reduce((sum, role) => sum + (s.cpu.get(role) ?? 0), 0)));
const ratio = (now: number, base: number) => (base > 0 ? `${(now / base).toFixed(2)}×` : '–');
const readyBase = median(starts.service.map((s) => s.readyMs));
const readyNow = median(starts.main.map((s) => s.readyMs));

const body = [
  `${runStamp()}: ${ROUNDS} starts of each, alternating; medians. A stack is the four apps (one renderer with its two conversion threads and its browser) over running Kafka, registry and Postgres; ready means every app consumes and the API answers /readyz.`,
  '',
  '| start | `service.ts`: the app alone (baseline) | `main.ts`: with its module-scopes hook | ÷ baseline |',
  '|---|---|---|---|',
  `| until ready | ${seconds(readyBase)} | ${seconds(readyNow)} | ${ratio(readyNow, readyBase)} |`,
  ...roles.map((role) => `| CPU: ${role} | ${seconds(cpuOf('service', role))} | ${seconds(cpuOf('main', role))} | ${ratio(cpuOf('main', role), cpuOf('service', role))} |`),
  `| **CPU: the apps** | **${seconds(appsOf('service'))}** | **${seconds(appsOf('main'))}** | **${ratio(appsOf('main'), appsOf('service'))}** |`,
].join('\n');
writeSection('start', 'bench/start/run.ts', body);
process.exit(0);
