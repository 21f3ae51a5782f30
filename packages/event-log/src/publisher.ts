import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { EventCodec, keyOf, topicOf, type JobEvent, type Topics } from '@folio/events';

/** Kafka's default message limit is 1 MB; events stay far below it (invariant 6). */
export const MAX_EVENT_BYTES = 256 * 1024;

export class EventTooLargeError extends Error {
  constructor(event: JobEvent, size: number) {
    super(`${event.type} of job ${event.job_id} encodes to ${size} bytes (limit ${MAX_EVENT_BYTES}); use a claim check`);
    this.name = 'EventTooLargeError';
  }
}

/**
 * Writes job events: Avro-encoded, keyed by job id, through an idempotent producer that waits for every in-sync
 * replica (acks=all), so an event is durable once `publish` resolves.
 */
export class EventPublisher {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    private readonly codec: EventCodec,
    private readonly topics: Topics,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  async publish(...events: JobEvent[]): Promise<void> {
    const byTopic = new Map<string, Array<{ key: string; value: Buffer }>>();
    for (const event of events) {
      const topic = topicOf(event, this.topics);
      const value = await this.codec.encode(event, topic);
      if (value.length > MAX_EVENT_BYTES) throw new EventTooLargeError(event, value.length);
      const messages = byTopic.get(topic) ?? [];
      messages.push({ key: keyOf(event), value });
      byTopic.set(topic, messages);
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }
}
