import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startPostgres, type PostgresService } from '../infra/services/index.ts';
import { Stack } from './support/stack.ts';
import { startJob } from './support/jobs.ts';
import { Receiver, selfSignedCertificate } from './support/receiver.ts';

const run = promisify(execFile);

/**
 * The other side of the line between transient and permanent failures: a store that is away is waited for on the
 * same offset, never parked, and nothing is skipped.
 */
describe('Postgres stopped for 10 s while events flow', () => {
  let postgres: PostgresService;
  let options: { port: number; dataDir: string };
  let stack: Stack;
  let key: string;
  let receiver: Receiver;

  beforeAll(async () => {
    // A Postgres of this test's own, so stopping it disturbs no other test.
    options = { port: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'folio-postgres-')) };
    postgres = await startPostgres(options);
    // Conversions are held 1.5 s, so renderers keep writing outcomes while Postgres is away.
    const tls = selfSignedCertificate();
    receiver = await Receiver.start(tls);
    stack = await Stack.start({
      infra: { ...inject('infra'), DATABASE_URL: postgres.url },
      env: { FOLIO_FAULT_RENDER_DELAY_MS: '1500', NODE_EXTRA_CA_CERTS: tls.caFile, FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
    });
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
    await postgres?.stop();
  });

  it('parks nothing, loses nothing, and projects everything once it is back', async () => {
    const accepted: string[] = [];
    const withCallback: string[] = [];
    const path = receiver.answer('/outage', { status: 200 });
    for (let i = 0; i < 24; i++) {
      if (i % 4 !== 3) {
        accepted.push(await startJob(stack, key, `job **${i}** before the outage`));
        continue;
      }
      // Every fourth job wants a callback: most of them finish while Postgres is away.
      const response = await stack.request('POST', '/v2/convert', {
        key,
        json: { markdown: `job **${i}** with a callback`, output: 'text', async: true, webhook_url: `${receiver.origin}${path}` },
      });
      expect(response.status).toBe(202);
      accepted.push(response.body.job_id);
      withCallback.push(response.body.job_id);
    }
    const projector = stack.running('projector')[0]!;
    const renderer = stack.running('renderer')[0]!;
    const dispatcher = stack.running('dispatcher')[0]!;

    await postgres.stop();
    await new Promise((r) => setTimeout(r, 10_000));
    postgres = await startPostgres(options);

    for (const id of accepted) expect((await stack.waitForJob(key, id, 120_000)).status).toBe('succeeded');
    // Nothing was parked, no process gave up, and they did wait: the projector said so.
    expect(await stack.sql`select * from parked_events`).toEqual([]);
    expect(projector.child.exitCode).toBeNull();
    expect(renderer.child.exitCode).toBeNull();
    expect(dispatcher.child.exitCode).toBeNull();
    expect(await readFile(projector.logFile, 'utf8')).toContain('projection waits: a store is away');

    // Every callback owed is delivered once Postgres is back: one POST per job, none lost, none doubled.
    const received = await receiver.waitFor(path, withCallback.length, 120_000);
    expect(received.map((r) => r.headers['x-folio-job-id']).sort()).toEqual([...withCallback].sort());

    // Every job has its whole story, each event once, one effective success.
    const perJob = await stack.sql<{ queued: number; succeeded: number; effective: number }[]>`
      select count(*) filter (where type = 'JobQueued')::int as queued,
             count(*) filter (where type = 'JobSucceeded')::int as succeeded,
             count(*) filter (where type = 'JobSucceeded' and effective)::int as effective
      from job_history group by job_id`;
    expect(perJob).toHaveLength(accepted.length);
    for (const row of perJob) expect(row).toEqual({ queued: 1, succeeded: 1, effective: 1 });

    // And the service takes new work at once.
    const sync = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'after the outage', output: 'text' } });
    expect(sync.status).toBe(200);
    expect(sync.body.content).toBe('after the outage');

    // What the projection wrote across the outage is what the log says: a replay beside it (into fresh tables, the
    // projector running) finds every read model equal, and leaves the live ones alone.
    const replay = await run(process.execPath, ['node_modules/.bin/folio', 'replay'], { env: { ...process.env, ...stack.env } });
    expect(replay.stdout).toContain('verified: the replay equals the live read models');
    expect(await stack.sql`select count(*)::int as n from jobs`).toEqual([{ n: accepted.length + 1 }]);
  });
});
