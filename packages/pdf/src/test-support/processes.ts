import fs from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Chromium browser processes started by this process (its direct children), by pid. */
export function chromiumBrowsers(): number[] {
  return processes()
    .filter((p) => p.ppid === process.pid && /chrom/.test(p.cmdline) && !p.cmdline.includes('--type='))
    .map((p) => p.pid);
}

/** The renderer processes (one per tab or site) under a Chromium browser process. */
export function chromiumRenderers(browserPid: number): number[] {
  const all = processes();
  const descendants = new Set([browserPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (descendants.has(p.ppid) && !descendants.has(p.pid)) {
        descendants.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => descendants.has(p.pid) && p.cmdline.includes('--type=renderer')).map((p) => p.pid);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat); // a zombie is dead
  } catch {
    return false;
  }
}
