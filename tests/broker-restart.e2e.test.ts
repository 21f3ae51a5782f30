import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startKafka, type KafkaService } from '../infra/services/index.ts';
import { Stack } from './support/stack.ts';
import { historyOf } from './support/jobs.ts';

/** Inputs with this marker are written, then reported to the API as writes of unknown outcome (FOLIO_FAULT_UNCONFIRMED_ON). */
const UNCONFIRMED = 'UNCONFIRMED-WRITE';

describe('the Kafka broker stopped for 10 s under load, then restarted', () => {
  let kafka: KafkaService;
  let stack: Stack;
  let key: string;
  let ports: { port: number; controllerPort: number; dataDir: string };

  beforeAll(async () => {
    // A broker of this test's own, so stopping it disturbs no other test.
    ports = { port: await freePort(), controllerPort: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'folio-kafka-')) };
    kafka = await startKafka(ports);
    stack = await Stack.start({ renderers: 2, env: { KAFKA_BROKERS: kafka.brokers, FOLIO_FAULT_UNCONFIRMED_ON: UNCONFIRMED } });
    // Paid: the load is several hundred documents, past a free key's 100 a month.
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    await kafka?.stop();
  });

  it('finishes every accepted job: none lost, none duplicated', async () => {
    const accepted: string[] = [];
    const refused: number[] = [];
    let load = true;
    const client = async (n: number) => {
      for (let i = 0; load && i < 200; i++) {
        const response = await stack.request('POST', '/v2/convert', { key, json: { markdown: `client ${n} job ${i}`, output: 'text', async: true } });
        if (response.status === 202) accepted.push(response.body.job_id);
        else refused.push(response.status);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const clients = [client(1), client(2), client(3)];

    await new Promise((r) => setTimeout(r, 3000));
    const before = accepted.length;
    await kafka.stop();
    await new Promise((r) => setTimeout(r, 10_000));
    kafka = await startKafka(ports);
    // The load goes on until the restarted broker has taken jobs again (how soon depends on how busy the machine is).
    await stack.until(async () => accepted.length >= before + 15, 60_000, 'jobs accepted after the restart');
    load = false;
    await Promise.all(clients);

    expect(before).toBeGreaterThan(0);
    for (const id of accepted) expect((await stack.waitForJob(key, id, 120_000)).status).toBe('succeeded');

    const rows = await stack.sql<{ job_id: string }[]>`select job_id from jobs`;
    expect(new Set(rows.map((r) => r.job_id))).toEqual(new Set(accepted));
    const [{ effective }] = (await stack.sql`
      select count(*)::int as effective from job_history where type = 'JobSucceeded' and effective`) as unknown as [{ effective: number }];
    expect(effective).toBe(accepted.length);
    // Any request refused while the broker was away was refused with a retryable interface error, not lost silently.
    for (const status of refused) expect(status).toBe(422);
  });

  it('writes a JobQueued again when its first write had an unknown outcome: the caller gets its job, converted and counted once', async () => {
    // What the broker-restart run above can meet by chance (a write cut off by its deadline while the broker went
    // away, which the broker had appended), made certain: answering these callers "refused" would leave them a job
    // that runs and is metered all the same.
    // The restart above may have cut a write off for real: only what this case adds is counted.
    const rewritten = async () => Number(/^folio_jobs_rewritten_total\{settled="appended"\} (\d+)$/m.exec(await (await fetch(`${stack.url}/metrics`)).text())?.[1] ?? 0);
    const before = await rewritten();
    const queued = await stack.request('POST', '/v2/convert', { key, json: { markdown: `${UNCONFIRMED} async`, output: 'text', async: true } });
    expect(queued.status).toBe(202);
    const sync = await stack.request('POST', '/v2/convert', { key, json: { markdown: `${UNCONFIRMED} sync`, output: 'text' } });
    expect(sync.status).toBe(200);
    expect(sync.text).toContain(`${UNCONFIRMED} sync`);
    expect((await stack.waitForJob(key, queued.body.job_id, 60_000)).status).toBe('succeeded');
    const [{ job_id: syncJob }] = (await stack.sql`
      select job_id from job_history where type = 'JobQueued' and data->'input'->>'text' = ${`${UNCONFIRMED} sync`}`) as unknown as [{ job_id: string }];

    expect((await rewritten()) - before).toBe(2);
    for (const id of [queued.body.job_id as string, syncJob]) {
      const history = await historyOf(stack, id);
      // Both copies carry one event id, applied once, and the job runs once: its renderer knows it finished it.
      expect(history.map((e) => e.type)).toEqual(['JobQueued', 'JobProcessing', 'JobSucceeded']);
      const [{ counted }] = (await stack.sql`select count(*)::int as counted from usage where job_id = ${id}`) as unknown as [{ counted: number }];
      expect(counted).toBe(1);
    }
  });
});
