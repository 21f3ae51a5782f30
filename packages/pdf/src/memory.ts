import fs from 'node:fs';

/**
 * Memory of a process and all its descendants (Chromium's browser, renderer, GPU and utility processes), in bytes,
 * read from /proc on Linux: the proportional set size where the kernel reports it (shared pages counted once across
 * the processes sharing them), else the resident set. Null where /proc cannot tell (another OS, a process gone).
 */
export function processTreeMemory(rootPid: number): number | null {
  const pids = descendantsAndSelf(rootPid);
  if (pids.length === 0) return null;
  let bytes = 0;
  for (const pid of pids) bytes += memoryOf(pid) ?? 0;
  return bytes;
}

function descendantsAndSelf(rootPid: number): number[] {
  const found: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone, or no /proc
    }
    found.push(pid);
    for (const tid of tasks) {
      try {
        for (const child of fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) {
          if (child.trim()) queue.push(Number(child));
        }
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return found;
}

function memoryOf(pid: number): number | null {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) return Number(pss[1]) * 1024;
  } catch {
    // fall back to the resident set below
  }
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return pages * 4096;
  } catch {
    return null;
  }
}
