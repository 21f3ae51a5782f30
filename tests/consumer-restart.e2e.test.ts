import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { createKafka, keepConsuming, type KeptConsumer } from '@folio/event-log';
import { createLogger } from '@folio/logging';

/**
 * After a broker restart under load, kafkajs' own retries can end in a KafkaJSNonRetriableError ("Failed to find
 * group coordinator"); kafkajs then leaves the consumer stopped for good. Seen in CI: the projector's group had no
 * member and accepted jobs were never projected. Here the same kind of crash is caused by the handler itself.
 */
describe('a consumer stopped by an error kafkajs does not restart from', () => {
  let kafka: Kafka;
  let kept: KeptConsumer | undefined;
  const topic = `keep-consuming-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    kafka = createKafka({ clientId: 'keep-consuming-test', brokers: inject('infra').KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
  });
  afterAll(async () => {
    await kept?.stop();
  });

  it('is restarted, and reads the message it crashed on again', async () => {
    const consumer = kafka.consumer({ groupId: `${topic}-group`, sessionTimeout: 6000, heartbeatInterval: 1000, maxWaitTimeInMs: 250 });
    const crashes: boolean[] = [];
    consumer.on(consumer.events.CRASH, ({ payload }) => crashes.push(payload.restart));
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });

    const seen: string[] = [];
    let thrown = false;
    kept = await keepConsuming(consumer, createLogger('test', 'silent'), `${topic}-group`, {
      eachMessage: async ({ message }) => {
        const value = message.value!.toString();
        seen.push(value);
        if (value === 'first' && !thrown) {
          thrown = true;
          throw Object.assign(new Error('simulated: failed to find group coordinator'), { retriable: false });
        }
      },
    });

    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'first' }, { value: 'second' }] });
    await producer.disconnect();

    const deadline = Date.now() + 30_000;
    while (!seen.includes('second') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // kafkajs itself chose not to restart (so without keepConsuming nothing would read on)…
    expect(crashes[0]).toBe(false);
    // …and the restarted consumer read the message it crashed on again, then the next.
    expect(seen.filter((v) => v === 'first')).toHaveLength(2);
    expect(seen).toContain('second');
  });
});
