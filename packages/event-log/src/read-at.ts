import { randomUUID } from 'node:crypto';
import { MessagesStreamModes, type Message } from '@platformatic/kafka';
import type { KafkaClients } from './kafka.ts';

export interface LoggedMessage {
  key: string | null;
  value: Buffer | null;
}

/**
 * Reads the one message at a position of the log (an operator re-applying a parked event): a throwaway consumer
 * group reads from that offset and takes the message; the group is deleted again.
 */
export async function readMessageAt(kafka: KafkaClients, topic: string, partition: number, offset: number, timeoutMs = 30_000): Promise<LoggedMessage> {
  const groupId = `folio-read-at-${randomUUID()}`;
  const consumer = kafka.consumer(groupId, 10_000);
  try {
    const stream = await consumer.consume({ topics: [topic], mode: MessagesStreamModes.MANUAL, offsets: [{ topic, partition, offset: BigInt(offset) }] });
    try {
      return await new Promise<LoggedMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message at ${topic}/${partition}@${offset} within ${timeoutMs} ms`)), timeoutMs);
        stream.on('data', (message: Message<Buffer, Buffer, Buffer, Buffer>) => {
          if (message.partition !== partition || Number(message.offset) !== offset) return;
          clearTimeout(timer);
          resolve({ key: message.key?.length ? message.key.toString('utf8') : null, value: message.value ?? null });
        });
        stream.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    } finally {
      await stream.close().catch(() => {});
    }
  } finally {
    await consumer.close(true).catch(() => {});
    const admin = kafka.admin();
    await admin.deleteGroups({ groups: [groupId] }).catch(() => {});
    await admin.close();
  }
}
