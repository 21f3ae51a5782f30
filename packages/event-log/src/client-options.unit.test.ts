import { describe, expect, it } from 'vitest';
import { Consumer, Producer, UserError } from '@platformatic/kafka';

/**
 * patches/@platformatic+kafka+2.12.1.patch makes the client compile an options schema only when its validator first
 * runs (it compiled all 38 at import, a fifth of an app's start). Folio's clients are not strict and never validate;
 * a strict one must still refuse bad options with the same errors. No broker is needed: a client connects only when
 * first used.
 */
const bad = { clientId: 'options-test', bootstrapBrokers: ['127.0.0.1:9'], retries: 'many' as never };

describe("the Kafka client's options", () => {
  it('are not validated for a client that is not strict', async () => {
    const producer = new Producer(bad);
    await producer.close();
    expect(producer.closed).toBe(true);
  });

  it('are validated for a strict client, which refuses a bad one by name, and takes a good one', async () => {
    expect(() => new Producer({ ...bad, strict: true })).toThrow(UserError);
    expect(() => new Producer({ ...bad, strict: true })).toThrow(/\/options\/retries must be number/);
    const consumer = new Consumer({ clientId: 'options-test', groupId: 'options-test', bootstrapBrokers: ['127.0.0.1:9'], strict: true });
    await consumer.close();
    expect(consumer.closed).toBe(true);
  });
});
