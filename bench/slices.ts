import { addCpu, cpuSnapshot, cpuSpent, type CpuSnapshot } from './process-cpu.ts';
import { percentile } from './stats.ts';

/** One document of a path; `worker` is the loop's index (0 … workers − 1), for paths that keep a page per loop. */
export type Path = (worker: number) => Promise<unknown>;

export interface Measured {
  perSecond: number;
  p50: number;
  p95: number;
  count: number;
  /** CPU milliseconds a document: this process (every thread), and the Chromium processes it started (process-cpu.ts). */
  nodeCpuMs: number;
  chromiumCpuMs: number;
  /** CPU milliseconds in all, by process (process-cpu.ts roles), over this path's slices. */
  cpu: CpuSnapshot;
}

export interface SliceOptions {
  /** Loops running each path at once. */
  workers: number;
  /** Seconds each path runs in all. */
  seconds: number;
  /** Slices those seconds are cut into. */
  slices: number;
  /** Documents each path makes, all loops together, before anything is measured. */
  warmup: number;
}

/**
 * Several paths (the baseline and what is compared with it) in alternating slices of the same run, so that load from
 * other processes on this shared machine falls on all of them alike rather than on whichever ran when it peaked.
 */
export async function alternate(paths: Path[], { workers, seconds, slices, warmup }: SliceOptions): Promise<Measured[]> {
  for (const path of paths) {
    await Promise.all(Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; i < Math.ceil(warmup / workers); i++) await path(w);
    }));
  }
  const tallies = paths.map(() => ({ latencies: [] as number[], seconds: 0, cpu: new Map() as CpuSnapshot }));
  for (let s = 0; s < slices; s++) {
    for (const [p, path] of paths.entries()) {
      const tally = tallies[p]!;
      const before = cpuSnapshot();
      const t0 = performance.now();
      const until = t0 + (seconds * 1000) / slices;
      await Promise.all(Array.from({ length: workers }, async (_, w) => {
        while (performance.now() < until) {
          const start = performance.now();
          await path(w);
          tally.latencies.push(performance.now() - start);
        }
      }));
      tally.seconds += (performance.now() - t0) / 1000;
      addCpu(tally.cpu, cpuSpent(before, cpuSnapshot()));
    }
  }
  return tallies.map((t) => ({
    perSecond: t.latencies.length / t.seconds,
    p50: percentile(t.latencies, 50),
    p95: percentile(t.latencies, 95),
    count: t.latencies.length,
    nodeCpuMs: (t.cpu.get('benchmark') ?? 0) / t.latencies.length,
    chromiumCpuMs: (t.cpu.get('benchmark: Chromium') ?? 0) / t.latencies.length,
    cpu: t.cpu,
  }));
}
