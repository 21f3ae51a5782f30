import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processTreeMemory, treeMemory } from './memory.ts';

describe('processTreeMemory', () => {
  it('adds up a process and its children, and says null for a process that is not there', async () => {
    // A tree of its own (a parent whose child holds 64 MiB), not this test's process: a worker that ran other files
    // before can return hundreds of MiB to the system between two readings of its own memory.
    const holder = 'const keep = Buffer.alloc(64 * 2 ** 20, 1); setTimeout(() => keep, 30_000)';
    const parent = spawn(process.execPath, [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(holder)}]); console.log(c.pid); setTimeout(() => {}, 30_000)`,
    ]);
    const childPid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    try {
      const MiB = 2 ** 20;
      let child = 0;
      for (let i = 0; i < 50 && child <= 60 * MiB; i++) {
        await new Promise((r) => setTimeout(r, 100));
        child = processTreeMemory(childPid) ?? 0;
      }
      expect(child).toBeGreaterThan(60 * MiB);
      // The parent's own pages (a Node process holds several MiB of its own) on top of its child's.
      expect(processTreeMemory(parent.pid!)! - processTreeMemory(childPid)!).toBeGreaterThan(5 * MiB);
    } finally {
      parent.kill('SIGKILL');
      try {
        process.kill(childPid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect(processTreeMemory(2 ** 22 + 12345)).toBeNull();
  });
});

describe('treeMemory', () => {
  it("counts each process's own pages, and the files and shared memory they map together once", () => {
    const MiB = 2 ** 20;
    const tab = { anon: 150 * MiB, file: 80 * MiB, shmem: 1 * MiB };
    const browser = { anon: 30 * MiB, file: 90 * MiB, shmem: 2 * MiB };
    expect(treeMemory([browser, tab, tab])).toBe((30 + 150 + 150 + 90 + 2) * MiB);
    expect(treeMemory([])).toBe(0);
  });
});
