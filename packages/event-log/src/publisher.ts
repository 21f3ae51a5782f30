import { logMetrics } from '@folio/metrics';
import { traceHeaders, type TraceHeaders } from '@folio/tracing';
import type { MessageToProduce, Producer } from '@platformatic/kafka';
import { EventCodec, keyOf, topicOf, type JobEvent, type Topics } from '@folio/events';
import { refusedForGood } from './failures.ts';
import type { KafkaClients } from './kafka.ts';

/** Kafka's default message limit is 1 MB; events stay far below it (invariant 6, docs/invariants.md). */
export const MAX_EVENT_BYTES = 256 * 1024;

/**
 * At most this much is written in one produce request. A topic's record batch may be 1 MB (`max.message.bytes`),
 * and everything for one partition in a request is one batch (the client does not split it): this leaves room, and
 * any single event fits.
 */
const MAX_WRITE_BYTES = 768 * 1024;

/**
 * How long one produce request may take before the producer is taken for wedged. A leader lost with its broker is
 * replaced within about 13 s here (the controller fences the broker after its 9 s session, then the client finds
 * the new leader), so a healthy producer is never cut off by this; one that has not settled by then is not coming back.
 */
export const SEND_DEADLINE_MS = 20_000;

/**
 * A write that did not settle within SEND_DEADLINE_MS. Its outcome is unknown: the broker may have appended it before
 * the producer was replaced. A caller must not act as if it was never written (release what it reserved for it);
 * retrying it is safe, since every event is idempotent to apply.
 */
export class PublishTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  readonly ambiguous = true;
  constructor(ms: number) {
    super(`the write to the log timed out after ${ms} ms; whether it was appended is unknown`);
    this.name = 'PublishTimeoutError';
  }
}

export class EventTooLargeError extends Error {
  constructor(event: JobEvent, size: number) {
    super(`${event.type} of job ${event.job_id} encodes to ${size} bytes (limit ${MAX_EVENT_BYTES}); use a claim check`);
    this.name = 'EventTooLargeError';
  }
}

interface Encoded {
  messages: Array<MessageToProduce<Buffer, Buffer, Buffer, Buffer>>;
  bytes: number;
}

interface Pending {
  /** The call's events, encoded (Avro through the registry: asynchronous, so a call is queued before it is ready). */
  encoding: Promise<Encoded>;
  /** Written in a request of its own: a shared write with it was refused. */
  alone?: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes job events: Avro-encoded, keyed by job id, through an idempotent producer that waits for every in-sync
 * replica (acks=all), so an event is durable once `publish` resolves.
 *
 * The producer has one request in flight (what keeps an idempotent producer's order). Calls made while a write is
 * under way are written together in the next request (a group commit): an idle publisher writes at once, a busy one
 * (a renderer finishing jobs in several partitions, the API taking requests) sends one request for many events
 * instead of queueing one request for each, which is most of the broker's and the client's work per event. Each
 * call's events stay in their order, and calls in the order they were made. When a shared write fails, every call
 * in it fails, and each caller's own retry applies, as it would have alone; but when the broker refuses it for good
 * (a protocol error that is not retriable: a record or a batch it will not take), each call is written again on its
 * own, so one call's fault stays its own.
 */
export class EventPublisher {
  private producer: Producer<Buffer, Buffer, Buffer, Buffer>;
  private readonly queue: Pending[] = [];
  private writing = false;

  private readonly kafka: KafkaClients;
  private readonly codec: EventCodec;
  private readonly topics: Topics;
  private readonly sendDeadlineMs: number;
  constructor(
    kafka: KafkaClients,
    codec: EventCodec,
    topics: Topics,
    sendDeadlineMs = SEND_DEADLINE_MS,
  ) {
    this.kafka = kafka;
    this.codec = codec;
    this.topics = topics;
    this.sendDeadlineMs = sendDeadlineMs;
    this.producer = kafka.producer();
  }

  /** Learns the cluster (and fails here, at start, when it cannot be reached) rather than at the first event. */
  async connect(): Promise<void> {
    await this.producer.metadata({ topics: [] });
  }

  disconnect(): Promise<void> {
    return this.producer.close();
  }

  publish(...events: JobEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      // Queued at once, in call order, whatever order the encodings finish in. The caller's trace (the request or
      // the run that wrote these events) travels in the records' headers, so the next step continues it.
      const encoding = this.encode(events, traceHeaders());
      encoding.catch(() => {}); // reported to the caller when its turn comes
      this.queue.push({ encoding, resolve, reject });
      void this.writeQueued();
    });
  }

  private async encode(events: JobEvent[], trace: TraceHeaders): Promise<Encoded> {
    const headers = Object.keys(trace).length > 0 ? new Map(Object.entries(trace).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])) : undefined;
    const messages: Encoded['messages'] = [];
    let bytes = 0;
    for (const event of events) {
      const topic = topicOf(event, this.topics);
      const value = await this.codec.encode(event, topic);
      if (value.length > MAX_EVENT_BYTES) throw new EventTooLargeError(event, value.length);
      messages.push({ topic, key: Buffer.from(keyOf(event)), value, ...(headers ? { headers } : {}) });
      bytes += value.length;
    }
    return { messages, bytes };
  }

  /** Writes what is queued, a request at a time, until the queue is empty. */
  private async writeQueued(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = await this.takeGroup();
        if (group.length === 0) continue;
        try {
          await this.sendWithin({ messages: group.flatMap((g) => g.encoded.messages) });
          for (const { call } of group) call.resolve();
        } catch (error) {
          if (group.length > 1 && refusedForGood(error)) this.queue.unshift(...group.map(({ call }) => ({ ...call, alone: true })));
          else for (const { call } of group) call.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * One produce request, given up on after the deadline. The chaos run found a producer whose send never settled after
   * the partition leader's broker was killed (a client-side wait that nothing ends): every later event of that process
   * queued behind it for good. A send past the deadline fails (ambiguously), and the producer is replaced by a new
   * one with fresh connections and metadata; the old one is closed without waiting for it.
   */
  private async sendWithin(request: { messages: Array<MessageToProduce<Buffer, Buffer, Buffer, Buffer>> }): Promise<void> {
    const producer = this.producer;
    const timed = logMetrics().produce.startTimer();
    const sent = producer.send(request);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.sendDeadlineMs);
    });
    try {
      if ((await Promise.race([sent, deadline])) !== 'late') {
        timed({ outcome: 'ok' });
        return;
      }
    } catch (error) {
      timed({ outcome: 'error' });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    timed({ outcome: 'timeout' });
    sent.catch(() => {}); // settles (if ever) after its callers were told
    if (this.producer === producer) {
      this.producer = this.kafka.producer();
      producer.close(true).catch(() => {});
    }
    throw new PublishTimeoutError(this.sendDeadlineMs);
  }

  /**
   * The calls at the head of the queue that fit in one request, once encoded (at least one, unless the head could not
   * be encoded: that call fails alone and the group is empty).
   */
  private async takeGroup(): Promise<Array<{ call: Pending; encoded: Encoded }>> {
    const group: Array<{ call: Pending; encoded: Encoded }> = [];
    let bytes = 0;
    while (this.queue.length > 0) {
      const call = this.queue[0]!;
      if (group.length > 0 && call.alone) break;
      let encoded: Encoded;
      try {
        encoded = await call.encoding;
      } catch (error) {
        this.queue.shift();
        call.reject(error);
        if (group.length === 0) return group;
        continue;
      }
      if (group.length > 0 && bytes + encoded.bytes > MAX_WRITE_BYTES) break;
      this.queue.shift();
      group.push({ call, encoded });
      bytes += encoded.bytes;
      if (call.alone) break;
    }
    return group;
  }
}
