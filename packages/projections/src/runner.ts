import type { Consumer, Kafka } from 'kafkajs';
import type { Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import {
  batchWaiting,
  ConsumerStoppedError,
  consumerConfig,
  keepConsuming,
  retryTransient,
  settle,
  type EventPublisher,
  type RetryContext,
  type Settled,
} from '@folio/event-log';
import { parkAndFailJob } from '@folio/parked-events';
import type { Logger } from '@folio/logging';
import { applyBatch, type LoggedEvent } from './store.ts';

export interface ProjectionOptions {
  kafka: Kafka;
  sql: Sql;
  codec: EventCodec;
  topics: Topics;
  groupId: string;
  logger: Logger;
  /** Writes the JobFailed of a job whose event had to be parked. */
  publisher: EventPublisher;
  /** The group's name without the topic prefix, as parked events record it. */
  consumerName?: string;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
}

export interface RunningProjection {
  consumer: Consumer;
  stop(): Promise<void>;
}

/** Tries an event gets when it fails in a way retrying cannot fix, before it is parked. */
const PERMANENT_TRIES = 3;

/**
 * Folds every job event into the read models. Each partition's batch is applied in one Postgres transaction with its
 * checkpoint; the Kafka offset is committed only after that, so Kafka's committed position never runs ahead of
 * Postgres: a crash anywhere replays a little of the log, and the checkpoint turns the replay into a no-op.
 *
 * No event can stop it (invariant 10, docs/invariants.md). While Postgres, the registry or the broker is away, a batch
 * waits on its offset with backoff and nothing is skipped. An event that can never be applied is found by applying the
 * batch one event at a time, parked, its job failed, and the partition moves on.
 */
export async function startProjection(options: ProjectionOptions): Promise<RunningProjection> {
  const { kafka, sql, codec, topics, groupId, logger } = options;
  const consumer = kafka.consumer(consumerConfig(groupId, options.sessionTimeoutMs ?? 30000));
  await consumer.connect();
  await consumer.subscribe({ topics: allTopics(topics), fromBeginning: true });
  const running = await keepConsuming(consumer, logger, groupId, {
    eachBatchAutoResolve: false,
    // Postgres checkpoints are the truth; Kafka's committed offsets only save re-reading on a restart, so they are
    // committed at most twice a second rather than after every batch.
    autoCommitInterval: 500,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 3,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      if (batch.isEmpty() || !isRunning() || isStale()) return;
      const waiting = batchWaiting(logger, 'projection', batch, { heartbeat, isRunning, isStale });
      const partition: PartitionBatch = {
        topic: batch.topic,
        partition: batch.partition,
        messages: batch.messages.map((m) => ({ offset: Number(m.offset), key: m.key?.toString('utf8') ?? null, value: m.value })),
        nextOffset: Number(batch.lastOffset()) + 1,
      };
      try {
        const applied = await projectBatch({ ...options, consumerName: options.consumerName ?? groupId, waiting }, partition);
        if (applied > 0) logger.debug({ topic: batch.topic, partition: batch.partition, applied }, 'projected');
      } catch (error) {
        // Stopping or rebalancing mid-wait: leave the batch to whoever reads the partition next.
        if (error instanceof ConsumerStoppedError) return;
        throw error;
      }
      resolveOffset(batch.lastOffset());
      await heartbeat();
      await commitOffsetsIfNecessary();
    },
  });

  return {
    consumer,
    async stop() {
      await running.stop();
    },
  };
}

interface PartitionBatch {
  topic: string;
  partition: number;
  messages: Array<{ offset: number; key: string | null; value: Buffer | null }>;
  nextOffset: number;
}

type Decoded = { offset: number; key: string | null; event: LoggedEvent | null; failure: { error: unknown; tries: number } | null };

/**
 * Applies a partition's batch. The common case is one transaction for the whole batch; when that fails in a way
 * retrying cannot fix, the batch is applied event by event so that only the event at fault is parked.
 */
async function projectBatch(ctx: ProjectionOptions & { consumerName: string; waiting: RetryContext }, batch: PartitionBatch): Promise<number> {
  const { sql, codec, waiting } = ctx;
  const decoded: Decoded[] = [];
  for (const m of batch.messages) {
    if (!m.value) continue;
    const outcome = await settle(() => codec.decode(m.value!), { ...waiting, tries: PERMANENT_TRIES });
    decoded.push({
      offset: m.offset,
      key: m.key,
      event: outcome.ok ? { topic: batch.topic, partition: batch.partition, offset: m.offset, event: outcome.value } : null,
      failure: outcome.ok ? null : { error: outcome.error, tries: outcome.tries },
    });
  }
  if (decoded.every((d) => d.event)) {
    try {
      return await retryTransient(() => applyBatch(sql, batch.topic, batch.partition, decoded.map((d) => d.event!), batch.nextOffset), waiting);
    } catch (error) {
      if (error instanceof ConsumerStoppedError) throw error;
      ctx.logger.warn({ err: error, topic: batch.topic, partition: batch.partition }, 'batch cannot be applied whole: applying it event by event');
    }
  }
  let applied = 0;
  for (const d of decoded) {
    const outcome: Settled<number> = d.event
      ? await settle(() => applyBatch(sql, batch.topic, batch.partition, [d.event!], d.offset + 1), { ...waiting, tries: PERMANENT_TRIES })
      : { ok: false, ...d.failure! };
    if (outcome.ok) {
      applied += outcome.value;
      continue;
    }
    await parkAndFailJob(
      { sql, publisher: ctx.publisher, logger: ctx.logger, worker: 'projector', waiting },
      {
        consumer: ctx.consumerName,
        topic: batch.topic,
        partition: batch.partition,
        offset: d.offset,
        jobId: d.event?.event.job_id ?? d.key,
        eventType: d.event?.event.type ?? null,
        error: outcome.error,
        tries: outcome.tries,
      },
    );
    await retryTransient(() => applyBatch(sql, batch.topic, batch.partition, [], d.offset + 1), waiting);
  }
  // Messages without a value (none are written today) still move the checkpoint to the batch's end.
  await retryTransient(() => applyBatch(sql, batch.topic, batch.partition, [], batch.nextOffset), waiting);
  return applied;
}
