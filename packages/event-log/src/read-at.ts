import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';

export interface LoggedMessage {
  key: string | null;
  value: Buffer | null;
}

/**
 * Reads the one message at a position of the log (an operator re-applying a parked event). kafkajs reads only as a
 * group member, so this joins a throwaway group, seeks, takes the message and deletes the group again.
 */
export async function readMessageAt(kafka: Kafka, topic: string, partition: number, offset: number, timeoutMs = 30_000): Promise<LoggedMessage> {
  const groupId = `folio-read-at-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic] });
    let resolveFound!: (m: LoggedMessage) => void;
    const found = new Promise<LoggedMessage>((resolve, reject) => {
      resolveFound = resolve;
      setTimeout(() => reject(new Error(`no message at ${topic}/${partition}@${offset} within ${timeoutMs} ms`)), timeoutMs).unref();
    });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition: p, message }) => {
        if (p === partition && Number(message.offset) === offset) resolveFound({ key: message.key?.toString('utf8') ?? null, value: message.value });
      },
    });
    // Seeking is allowed once the consumer runs; the seek replaces wherever the fresh group would have started.
    consumer.seek({ topic, partition, offset: String(offset) });
    return await found;
  } finally {
    await consumer.disconnect().catch(() => {});
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([groupId]).catch(() => {});
    await admin.disconnect();
  }
}
