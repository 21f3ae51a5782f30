import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createKafka } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { Stack } from './support/stack.ts';
import { snapshot, startJob } from './support/jobs.ts';

const run = promisify(execFile);

/** Tables that are not read models: a replay, even one swapped in, must leave them as they are. */
const NOT_READ_MODELS = ['parked_events', 'render_attempts', 'api_keys', 'usage', 'quota_reservations', 'idempotency_keys', 'delivery_schedule'];

describe('folio replay: fresh tables, verified against the live ones, swapped in while jobs flow', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start({ env: { FOLIO_FAULT_THROW_ON: 'POISON', FOLIO_RENDER_ATTEMPTS: '2' } });
    key = await stack.createKey('paid');
  });
  afterAll(() => stack?.stop());

  const replay = (...args: string[]) => run(process.execPath, ['node_modules/.bin/folio', 'replay', ...args], { env: { ...process.env, ...stack.env } });

  /** Submits async jobs one after another until stopped; returns their ids. */
  function keepSubmitting(): { stop(): Promise<string[]> } {
    const ids: string[] = [];
    let going = true;
    const loop = (async () => {
      for (let i = 0; going; i++) {
        ids.push(await startJob(stack, key, i % 7 === 3 ? `POISON flowing ${i}` : `flowing ${i}`));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    return {
      async stop() {
        going = false;
        await loop;
        return ids;
      },
    };
  }

  async function untouched(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of NOT_READ_MODELS) out[table] = [...(await stack.sql.unsafe(`select * from ${table} order by 1`))];
    return out;
  }

  it('replays beside the live projection, verifies equal, swaps, and the projection carries on', async () => {
    const first = [];
    for (let i = 0; i < 12; i++) first.push(await startJob(stack, key, i % 5 === 0 ? `POISON ${i}` : `job ${i}`, i % 2 ? 'html' : 'text'));
    expect((await stack.request('POST', '/v2/convert', { key, json: { markdown: 'sync one', output: 'json' } })).status).toBe(200);
    for (const id of first) await stack.waitForJob(key, id);

    // 1. A replay while jobs keep coming: its own consumer, fresh tables, compared like with like.
    const flow = keepSubmitting();
    const checked = await replay();
    const during = await flow.stop();
    // Every event up to the end offsets was folded, and the bar said so.
    const total = Number(/(\d+)\/\1 events/.exec(checked.stderr.replaceAll(',', ''))?.[1]);
    expect(checked.stdout.replaceAll(',', '')).toMatch(new RegExp(`^replayed ${total} events`));
    expect(during.length).toBeGreaterThan(0);
    expect(checked.stdout).toMatch(/^replayed [\d,]+ events/);
    expect(checked.stdout).toMatch(/^jobs\s+\d+\s+\d+\s+[0-9a-f]{15}\s+[0-9a-f]{15}\s+0\s+0\s+0$/m);
    expect(checked.stdout).toMatch(/^job_history\s/m);
    expect(checked.stdout).toMatch(/^delivery_attempts\s/m);
    expect(checked.stdout).toMatch(/^projection_checkpoints\s/m);
    expect(checked.stdout).toContain('verified: the replay equals the live read models');
    expect(checked.stdout).toContain('not swapped');
    expect(checked.stderr).toMatch(/events\/s {2}(ETA|done)/);
    // The replay's tables are beside the live ones, and its consumer group is gone again.
    const [{ n: replayed }] = (await stack.sql`select count(*)::int as n from folio_replay.jobs`) as unknown as [{ n: number }];
    expect(replayed).toBeGreaterThanOrEqual(13);
    const admin = createKafka({ clientId: 'replay-test', brokers: stack.env.KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') }).admin();
    const groups = [...(await admin.listGroups()).values()].map((g) => ({ groupId: g.id }));
    await admin.close();
    expect(groups.map((g) => g.groupId).filter((g) => g.startsWith(stack.namespace) && g.includes('replay'))).toEqual([]);

    // 2. A difference in the live tables is found and named.
    for (const id of during) await stack.waitForJob(key, id);
    const [victim] = first;
    await stack.sql`update jobs set attempts = attempts + 5 where job_id = ${victim!}`;
    const before = await untouched();
    const differs = await replay().then(
      () => {
        throw new Error('a replay that differs should exit non-zero');
      },
      (error: { code: number; stdout: string }) => error,
    );
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/^jobs\s.*\s0\s+0\s+1$/m);
    expect(differs.stdout).toContain(`jobs differs at ${victim}`);
    expect(differs.stdout).toContain('DIFFERENT');
    expect(await untouched()).toEqual(before);

    // 3. Swap while jobs flow: the mended row comes back from the log, the rest carries on.
    const flow2 = keepSubmitting();
    const swapped = await replay('--swap');
    const duringSwap = await flow2.stop();
    expect(duringSwap.length).toBeGreaterThan(0);
    expect(swapped.stdout).toContain('swapped: the replayed tables are live');
    const [{ attempts }] = (await stack.sql`select attempts from jobs where job_id = ${victim!}`) as unknown as [{ attempts: number }];
    expect(attempts).toBeLessThan(5);

    // Every job, before, during and after the swap, is projected in full: no event fell between the two tables.
    const after = [await startJob(stack, key, 'after the swap'), await startJob(stack, key, 'POISON after the swap')];
    for (const id of [...first, ...during, ...duringSwap, ...after]) {
      const job = await stack.waitForJob(key, id);
      expect(['succeeded', 'failed']).toContain(job.status);
    }
    const [{ n }] = (await stack.sql`select count(*)::int as n from job_history where job_id = ${after[0]!}`) as unknown as [{ n: number }];
    expect(n).toBe(3);
    // The meter went on counting in the swapped tables' transactions: every success once, none twice.
    const [{ counted, succeeded }] = (await stack.sql`
      select (select count(*)::int from usage) as counted, (select count(*)::int from jobs where status = 'succeeded') as succeeded`) as unknown as [
      { counted: number; succeeded: number },
    ];
    expect(counted).toBe(succeeded);

    // The swapped tables and the projection that went on writing to them are what the log says, to the row.
    const liveNow = await snapshot(stack);
    const again = await replay();
    expect(again.stdout).toContain('verified: the replay equals the live read models');
    expect(again.stdout).not.toContain('not compared: ');
    const replayedNow = {
      jobs: [...(await stack.sql`select * from folio_replay.jobs order by job_id`)],
      history: [...(await stack.sql`select * from folio_replay.job_history order by event_id`)],
      deliveries: [...(await stack.sql`select * from folio_replay.delivery_attempts order by event_id`)],
    };
    expect(replayedNow).toEqual(liveNow);
  });
});
