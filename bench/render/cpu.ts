import fs from 'node:fs';

/**
 * CPU time, in seconds, of this process (every thread) and of the Chromium processes it started. Throughput on this
 * shared 2-core machine swings by a third from one minute to the next; CPU time per document swings less and says
 * where the time goes, so the benchmarks print both.
 */
export function processCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds of every process whose command line mentions `binary` (Chromium's browser, renderers, GPU, utility). */
export function chromiumCpuSeconds(binary = 'chrom'): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(binary)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime + stime
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}
