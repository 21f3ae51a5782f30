import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processTreeMemory, treeMemory } from './memory.ts';

describe('processTreeMemory', () => {
  it('adds up a process and its children, and says null for a process that is not there', async () => {
    const alone = processTreeMemory(process.pid)!;
    expect(alone).toBeGreaterThan(10 * 2 ** 20); // this test process alone holds tens of MiB
    const child = spawn(process.execPath, ['-e', 'const keep = Buffer.alloc(64 * 2 ** 20, 1); setTimeout(() => keep, 30_000)']);
    try {
      await new Promise((r) => setTimeout(r, 700));
      expect(processTreeMemory(child.pid!)).toBeGreaterThan(60 * 2 ** 20);
      expect(processTreeMemory(process.pid)! - alone).toBeGreaterThan(50 * 2 ** 20);
    } finally {
      child.kill('SIGKILL');
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
