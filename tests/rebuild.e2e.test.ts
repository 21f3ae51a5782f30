import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Stack } from './support/stack.ts';
import { snapshot, startJob } from './support/jobs.ts';

const run = promisify(execFile);

describe('rebuilding the read models from the log', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start({ env: { FOLIO_FAULT_THROW_ON: 'POISON', FOLIO_RENDER_ATTEMPTS: '2' } });
    key = await stack.createKey();
  });
  afterAll(() => stack?.stop());

  const replay = () => run(process.execPath, ['node_modules/.bin/folio', 'replay'], { env: { ...process.env, ...stack.env } });

  it('gives rows identical to the live ones', async () => {
    const ids = [];
    for (let i = 0; i < 15; i++) ids.push(await startJob(stack, key, i % 5 === 0 ? `POISON ${i}` : `job ${i}`, i % 2 ? 'html' : 'text'));
    const sync = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'sync one', output: 'json' } });
    expect(sync.status).toBe(200);
    for (const id of ids) await stack.waitForJob(key, id);

    // A rebuild refuses to run beside a live projector.
    await expect(replay()).rejects.toMatchObject({ stderr: expect.stringContaining('stop it before rebuilding') });

    const [projector] = stack.running('projector');
    await projector!.stop();
    const live = await snapshot(stack);
    expect(live.jobs).toHaveLength(16);

    const { stdout } = await replay();
    expect(stdout).toMatch(/replayed \d+ events/);
    const rebuilt = await snapshot(stack);
    expect(rebuilt).toEqual(live);

    // The projector carries on from where the rebuild ended.
    stack.spawn('projector');
    const after = await startJob(stack, key, 'after the rebuild');
    expect((await stack.waitForJob(key, after)).status).toBe('succeeded');
    const [{ n }] = (await stack.sql`select count(*)::int as n from job_history where job_id = ${after}`) as unknown as [{ n: number }];
    expect(n).toBe(3);
  });
});
