// kafkajs 2.2.4, as Folio uses it: eachBatch with partitionsConsumedConcurrently, one sendBatch a batch through an
// idempotent producer (acks=-1, one request in flight), offsets resolved only once the batch's output is
// acknowledged and committed by kafkajs' own interval commit (which commits resolved offsets only).
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { mendRequestQueue } from '../kafkajs-request-queue.ts';
import type { ClientModule, Member, MemberConfig } from '../protocol.ts';
import { outValue, SETTINGS } from '../protocol.ts';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

function kafkaFor(config: MemberConfig): Kafka {
  if (config.mend) mendRequestQueue();
  return new Kafka({ clientId: `bench-kafkajs-${config.part}`, brokers: config.brokers, logLevel: logLevel.WARN });
}

function consumerFor(kafka: Kafka, config: MemberConfig) {
  return kafka.consumer({
    groupId: config.groupId,
    sessionTimeout: SETTINGS.sessionTimeoutMs,
    rebalanceTimeout: SETTINGS.sessionTimeoutMs * 2,
    heartbeatInterval: SETTINGS.heartbeatIntervalMs,
    maxWaitTimeInMs: SETTINGS.maxWaitMs,
    allowAutoTopicCreation: false,
  });
}

const RUN = {
  partitionsConsumedConcurrently: 12,
  eachBatchAutoResolve: false,
  autoCommit: true,
  autoCommitInterval: SETTINGS.commitIntervalMs,
} as const;

export const startWorker: ClientModule['startWorker'] = async (config, tally, ready): Promise<Member> => {
  const kafka = kafkaFor(config);
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  const consumer = consumerFor(kafka, config);
  consumer.on(consumer.events.GROUP_JOIN, () => ready());
  await consumer.connect();
  await consumer.subscribe({ topics: [config.inTopic], fromBeginning: true });
  await consumer.run({
    ...RUN,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      tally.batchStart();
      const partition = batch.partition;
      // acks=-1 is sendBatch's default; with idempotence kafkajs refuses anything else.
      await producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic: config.outTopic, messages: batch.messages.map((m) => ({ key: m.key, value: outValue(m.value!, partition) })) }],
      });
      resolveOffset(batch.lastOffset());
      tally.messages += batch.messages.length;
      tally.batchEnd();
      await heartbeat();
    },
  });
  return {
    async stop() {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
};

export const startReader: ClientModule['startReader'] = async (config, tally, ready): Promise<Member> => {
  const kafka = kafkaFor(config);
  const consumer = consumerFor(kafka, config);
  consumer.on(consumer.events.GROUP_JOIN, () => ready());
  await consumer.connect();
  await consumer.subscribe({ topics: [config.outTopic], fromBeginning: true });
  await consumer.run({
    ...RUN,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      tally.batchStart();
      for (const m of batch.messages) tally.read(m.key, m.value, batch.partition);
      resolveOffset(batch.lastOffset());
      tally.batchEnd();
      await heartbeat();
    },
  });
  return { stop: () => consumer.disconnect() };
};

