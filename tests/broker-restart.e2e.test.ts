import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startKafka, type KafkaService } from '../infra/services/index.ts';
import { Stack } from './support/stack.ts';

describe('the Kafka broker stopped for 10 s under load, then restarted', () => {
  let kafka: KafkaService;
  let stack: Stack;
  let key: string;
  let ports: { port: number; controllerPort: number; dataDir: string };

  beforeAll(async () => {
    // A broker of this test's own, so stopping it disturbs no other test.
    ports = { port: await freePort(), controllerPort: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'folio-kafka-')) };
    kafka = await startKafka(ports);
    stack = await Stack.start({ renderers: 2, env: { KAFKA_BROKERS: kafka.brokers } });
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
});
