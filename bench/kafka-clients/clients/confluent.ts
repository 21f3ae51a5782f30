// @confluentinc/kafka-javascript (librdkafka) through its KafkaJS-compatible API: eachBatch with
// partitionsConsumedConcurrently, one `send` a batch through an idempotent producer (enable.idempotence, acks=-1;
// librdkafka keeps order with idempotence on at up to 5 requests in flight a partition), offsets resolved only once
// the batch's delivery reports are in and committed by librdkafka's interval auto-commit, which commits only
// offsets that were stored (resolved). It is not a Folio dependency (it does not install from the npm registry
// alone): run.ts builds it into the cache and passes its folder.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ClientModule, Member, MemberConfig } from '../protocol.ts';
import { outValue, SETTINGS } from '../protocol.ts';

/** The part of the KafkaJS-compatible API used here (the package's own types are not on Folio's path). */
interface CfMessage {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
  timestamp: string;
}
interface CfEachBatch {
  batch: { topic: string; partition: number; messages: CfMessage[]; lastOffset(): string };
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
  isRunning(): boolean;
  isStale(): boolean;
}
interface CfConsumer {
  connect(): Promise<void>;
  subscribe(subscription: { topics: string[] }): Promise<void>;
  run(config: { partitionsConsumedConcurrently: number; eachBatchAutoResolve: boolean; eachBatch(payload: CfEachBatch): Promise<void> }): Promise<void>;
  assignment(): Array<{ topic: string; partitions: number[] }>;
  disconnect(): Promise<void>;
}
interface CfProducer {
  connect(): Promise<void>;
  send(record: { topic: string; messages: Array<{ key: Buffer | null; value: Buffer }> }): Promise<unknown>;
  disconnect(): Promise<void>;
}
interface CfKafka {
  consumer(config: Record<string, unknown>): CfConsumer;
  producer(config: Record<string, unknown>): CfProducer;
}
interface CfModule {
  KafkaJS: { Kafka: new (config: Record<string, unknown>) => CfKafka; logLevel: Record<string, number> };
  librdkafkaVersion: string;
}

export function loadConfluent(dir: string): CfModule {
  return createRequire(join(dir, 'package.json'))('@confluentinc/kafka-javascript') as CfModule;
}

function kafkaFor(config: MemberConfig): { kafka: CfKafka; module: CfModule } {
  if (!config.confluentDir) throw new Error('confluent: no confluentDir given');
  const module = loadConfluent(config.confluentDir);
  const kafka = new module.KafkaJS.Kafka({
    kafkaJS: { clientId: `bench-confluent-${config.part}`, brokers: config.brokers, logLevel: module.KafkaJS.logLevel.WARN },
  });
  return { kafka, module };
}

function consumerFor(kafka: CfKafka, config: MemberConfig): CfConsumer {
  return kafka.consumer({
    kafkaJS: {
      groupId: config.groupId,
      fromBeginning: true,
      sessionTimeout: SETTINGS.sessionTimeoutMs,
      rebalanceTimeout: SETTINGS.sessionTimeoutMs * 2,
      heartbeatInterval: SETTINGS.heartbeatIntervalMs,
      maxWaitTimeInMs: SETTINGS.maxWaitMs,
      autoCommit: true,
      autoCommitInterval: SETTINGS.commitIntervalMs,
    },
    // Messages handed to one eachBatch call at most (the compatible API's default is 32).
    'js.consumer.max.batch.size': BATCH_SIZE,
  });
}

const BATCH_SIZE = Number(process.env.BENCH_CONFLUENT_BATCH ?? 1024);

/** Calls `ready` once the group has given this member partitions (the compatible API has no join event). */
function whenAssigned(consumer: CfConsumer, ready: () => void): void {
  const check = setInterval(() => {
    if (consumer.assignment().length > 0) {
      clearInterval(check);
      ready();
    }
  }, 50);
}

export const startWorker: ClientModule['startWorker'] = async (config, tally, ready): Promise<Member> => {
  const { kafka } = kafkaFor(config);
  const producer = kafka.producer({ kafkaJS: { idempotent: true, acks: -1, maxInFlightRequests: 5, allowAutoTopicCreation: false } });
  await producer.connect();
  const consumer = consumerFor(kafka, config);
  await consumer.connect();
  await consumer.subscribe({ topics: [config.inTopic] });
  await consumer.run({
    partitionsConsumedConcurrently: 12,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      tally.batchStart();
      const partition = batch.partition;
      await producer.send({ topic: config.outTopic, messages: batch.messages.map((m) => ({ key: m.key, value: outValue(m.value!, partition) })) });
      resolveOffset(batch.lastOffset());
      tally.messages += batch.messages.length;
      tally.batchEnd();
      await heartbeat();
    },
  });
  whenAssigned(consumer, ready);
  return {
    async stop() {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
};

export const startReader: ClientModule['startReader'] = async (config, tally, ready): Promise<Member> => {
  const { kafka } = kafkaFor(config);
  const consumer = consumerFor(kafka, config);
  await consumer.connect();
  await consumer.subscribe({ topics: [config.outTopic] });
  await consumer.run({
    partitionsConsumedConcurrently: 12,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      tally.batchStart();
      for (const m of batch.messages) tally.read(m.key, m.value, batch.partition);
      resolveOffset(batch.lastOffset());
      tally.batchEnd();
      await heartbeat();
    },
  });
  whenAssigned(consumer, ready);
  return { stop: () => consumer.disconnect() };
};
