import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from './support/supervisor.ts';

describe('npm start when an app keeps dying', () => {
  let folio: Supervisor;

  beforeAll(async () => {
    folio = await Supervisor.start();
  });
  afterAll(() => folio?.stop());

  it('gives up at the fifth crash in two minutes, says which app and where its log is, and stops everything', async () => {
    // The dispatcher starts in a second, so five crashes take little more than the waits between them (1+2+4+8 s).
    for (let crash = 1; crash <= 5; crash++) {
      const pid = await folio.until(() => folio.pidOf('dispatcher'), 30_000, `the dispatcher to run before crash ${crash}`);
      process.kill(pid, 'SIGKILL');
      if (crash < 5) await folio.successorOf('dispatcher', pid);
    }

    expect(await folio.exited).toEqual({ code: 1, signal: null });
    const logFile = `${folio.stateDir}/dev/logs/dispatcher.log`;
    const waits = [1, 2, 4, 8].map((s, i) => `[dispatcher] exited unexpectedly (SIGKILL); restarting in ${s} s (crash ${i + 1} of 5 in 2 min)`);
    for (const line of waits) expect(folio.output).toContain(line);
    expect(folio.output).toContain(`[dispatcher] exited unexpectedly (SIGKILL): 5 crashes in 2 min, giving up and stopping Folio; see ${logFile}`);
    expect(folio.logOf('dispatcher')).toContain('"level":60,');
    expect(folio.output).toContain('stopped.');
    expect(folio.processes()).toEqual([]);
  });
});
