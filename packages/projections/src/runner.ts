import type { Consumer, Kafka } from 'kafkajs';
import type { Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import { consumerConfig } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { applyBatch, type LoggedEvent } from './store.ts';

/** Projectors hold this lock shared while they run; a rebuild takes it exclusively, so the two never overlap. */
export const PROJECTION_LOCK = 7_406_311_002;

export interface ProjectionOptions {
  kafka: Kafka;
  sql: Sql;
  codec: EventCodec;
  topics: Topics;
  groupId: string;
  logger: Logger;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
}

export interface RunningProjection {
  consumer: Consumer;
  stop(): Promise<void>;
}

/**
 * Folds every job event into the read models. Each partition's batch is applied in one Postgres transaction with its
 * checkpoint; the Kafka offset is committed only after that, so Kafka's committed position never runs ahead of
 * Postgres: a crash anywhere replays a little of the log, and the checkpoint turns the replay into a no-op.
 */
export async function startProjection(options: ProjectionOptions): Promise<RunningProjection> {
  const { kafka, sql, codec, topics, groupId, logger } = options;
  const lock = await sql.reserve();
  await lock`select pg_advisory_lock_shared(${PROJECTION_LOCK})`;

  const consumer = kafka.consumer(consumerConfig(groupId, options.sessionTimeoutMs ?? 30000));
  await consumer.connect();
  await consumer.subscribe({ topics: allTopics(topics), fromBeginning: true });
  await consumer.run({
    eachBatchAutoResolve: false,
    // Postgres checkpoints are the truth; Kafka's committed offsets only save re-reading on a restart, so they are
    // committed at most twice a second rather than after every batch.
    autoCommitInterval: 500,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 3,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      if (batch.isEmpty() || !isRunning() || isStale()) return;
      const events: LoggedEvent[] = [];
      for (const message of batch.messages) {
        if (!message.value) continue;
        try {
          events.push({
            topic: batch.topic,
            partition: batch.partition,
            offset: Number(message.offset),
            event: await codec.decode(message.value),
          });
        } catch (error) {
          // An event this code cannot read must not stop every job behind it; it stays in the log for a later fix.
          logger.error({ err: error, topic: batch.topic, partition: batch.partition, offset: message.offset }, 'undecodable event skipped');
        }
      }
      const applied = await applyBatch(sql, batch.topic, batch.partition, events, Number(batch.lastOffset()) + 1);
      resolveOffset(batch.lastOffset());
      await heartbeat();
      await commitOffsetsIfNecessary();
      if (applied > 0) logger.debug({ topic: batch.topic, partition: batch.partition, applied }, 'projected');
    },
  });

  return {
    consumer,
    async stop() {
      await consumer.disconnect();
      await lock`select pg_advisory_unlock_shared(${PROJECTION_LOCK})`.catch(() => {});
      lock.release();
    },
  };
}
