// @platformatic/kafka: a MessagesStream read in paused mode, everything it has buffered taken at once and sent with
// one `send` through an idempotent producer (idempotent: true forces acks=-1 and one request in flight a
// connection); offsets are committed only once that send is acknowledged, at most every commitIntervalMs, through
// the messages' own `commit()` (the stream coalesces commits of a partition into one request in flight).
import {
  compatibilityPartitioner,
  Consumer,
  MessagesStreamFallbackModes,
  MessagesStreamModes,
  ProduceAcks,
  Producer,
  type Message,
  type MessagesStream,
} from '@platformatic/kafka';
import type { ClientModule, Member, MemberConfig, Tally } from '../protocol.ts';
import { outValue, SETTINGS } from '../protocol.ts';

/**
 * Buffered messages taken at most at once. The producer sends one record batch a partition for a whole `send` and
 * does not split it, and the stream may hand out one partition's messages in a row: 2,048 output messages of 1 KB
 * from one partition made a batch over the broker's 1 MB message.max.bytes (MESSAGE_TOO_LARGE). 512 stay below it.
 */
const MAX_BATCH = 512;

function consumerFor(config: MemberConfig): Consumer {
  return new Consumer({
    clientId: `bench-platformatic-${config.part}`,
    bootstrapBrokers: config.brokers,
    groupId: config.groupId,
    autocommit: false,
    sessionTimeout: SETTINGS.sessionTimeoutMs,
    rebalanceTimeout: SETTINGS.sessionTimeoutMs * 2,
    heartbeatInterval: SETTINGS.heartbeatIntervalMs,
    maxWaitTime: SETTINGS.maxWaitMs,
  });
}

/**
 * The last message of each partition whose work is done, committed at most every commitIntervalMs: at once when
 * the last commit is older, else by a timer armed only while something waits (no timer runs while idle).
 */
class Committer {
  readonly #done = new Map<number, Message>();
  #last = 0;
  #timer: NodeJS.Timeout | null = null;
  #chain: Promise<void> = Promise.resolve();

  mark(messages: Message[]): void {
    for (const m of messages) this.#done.set(m.partition, m);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, Math.max(0, this.#last + SETTINGS.commitIntervalMs - Date.now()));
  }

  flush(): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      if (this.#done.size === 0) return;
      this.#last = Date.now();
      const lasts = [...this.#done.values()];
      this.#done.clear();
      await Promise.all(lasts.map((m) => m.commit()));
    });
    return this.#chain;
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
  }
}

/** Reads what the stream has buffered, batch by batch, until stopped; `handle` is awaited before the next read. */
async function drain(
  stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>,
  tally: Tally,
  handle: (batch: Message[]) => Promise<void>,
  committer: Committer,
) {
  let stopping = false;
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    wake?.();
    wake = null;
  };
  stream.on('readable', wakeUp);
  stream.on('close', wakeUp);
  const done = (async () => {
    while (!stopping) {
      const batch: Message[] = [];
      let m: Message | null;
      while (batch.length < MAX_BATCH && (m = stream.read() as Message | null) !== null) batch.push(m);
      if (batch.length === 0) {
        if (stream.destroyed || stream.readableEnded) return;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      tally.batchStart();
      await handle(batch);
      tally.batchEnd();
      committer.mark(batch);
    }
  })();
  return async () => {
    stopping = true;
    wakeUp();
    await done;
    await committer.close();
  };
}

async function consume(consumer: Consumer, topic: string, ready: () => void) {
  consumer.on('consumer:group:join', () => {
    if ((consumer.assignments?.length ?? 0) > 0) ready();
  });
  const stream = (await consumer.consume({
    topics: [topic],
    mode: MessagesStreamModes.COMMITTED,
    fallbackMode: MessagesStreamFallbackModes.EARLIEST,
  })) as MessagesStream<Buffer, Buffer, Buffer, Buffer>;
  stream.on('error', (error) => {
    throw error;
  });
  // drain()'s 'readable' listener puts the stream in paused mode: it fetches (it does not while nobody listens) and
  // keeps up to its highWaterMark buffered for read().
  if ((consumer.assignments?.length ?? 0) > 0) ready();
  return stream;
}

export const startWorker: ClientModule['startWorker'] = async (config, tally, ready): Promise<Member> => {
  const producer = new Producer({
    clientId: `bench-platformatic-worker-producer`,
    bootstrapBrokers: config.brokers,
    idempotent: true,
    acks: ProduceAcks.ALL,
    // Java's and kafkajs' murmur2 partitioning (the default partitioner maps a key elsewhere: see the bench's notes).
    partitioner: compatibilityPartitioner,
  });
  // Registers the producer id before any work (the first send would otherwise do it).
  await producer.initIdempotentProducer({});
  const consumer = consumerFor(config);
  const stream = await consume(consumer, config.inTopic, ready);
  const stopDrain = await drain(
    stream,
    tally,
    async (batch) => {
      await producer.send({
        messages: batch.map((m) => ({ topic: config.outTopic, key: m.key, value: outValue(m.value, m.partition) })),
      });
      tally.messages += batch.length;
    },
    new Committer(),
  );
  return {
    async stop() {
      await stopDrain();
      await stream.close();
      await consumer.close(true);
      await producer.close();
    },
  };
};

export const startReader: ClientModule['startReader'] = async (config, tally, ready): Promise<Member> => {
  const consumer = consumerFor(config);
  const stream = await consume(consumer, config.outTopic, ready);
  const stopDrain = await drain(
    stream,
    tally,
    async (batch) => {
      for (const m of batch) tally.read(m.key, m.value, m.partition);
    },
    new Committer(),
  );
  return {
    async stop() {
      await stopDrain();
      await stream.close();
      await consumer.close(true);
    },
  };
};
