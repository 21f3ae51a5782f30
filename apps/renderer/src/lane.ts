import type { Kafka } from 'kafkajs';
import type { Sql } from '@folio/db';
import type { EventCodec, Lane } from '@folio/events';
import { batchWaiting, ConsumerStoppedError, consumerConfig, keepConsuming, settle, type EventPublisher } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { parkAndFailJob } from '@folio/parked-events';
import { renderJob, type RenderContext } from './render-job.ts';
import type { RenderSlots } from './slots.ts';

/** Tries a request gets when it fails in a way retrying cannot fix, before it is parked. */
const PERMANENT_TRIES = 3;

/**
 * One lane's consumer: takes JobQueued events from the lane's topic, as a member of the lane's renderer group.
 * Partitions are consumed concurrently (bounded by the shared slots); within a partition, jobs run in order. The
 * consumer heartbeats while a job runs, so a long conversion is not mistaken for a dead member.
 *
 * No request can stop it (invariant 10, docs/invariants.md): one that does not decode, or whose handling fails in a way
 * retrying cannot fix, is parked and its job failed; while the broker, the registry or Postgres is away it waits on the
 * same offset. An offset is resolved only once its job's outcome is in the log, so a stop mid-job leaves the job to the
 * next reader.
 */
export async function startLane(options: {
  lane: Lane;
  topic: string;
  groupId: string;
  /** The group's name without the topic prefix, as parked events record it. */
  consumerName: string;
  kafka: Kafka;
  codec: EventCodec;
  sql: Sql;
  publisher: EventPublisher;
  slots: RenderSlots;
  concurrency: number;
  sessionTimeoutMs: number;
  render: RenderContext;
  logger: Logger;
}): Promise<{ stop(): Promise<void> }> {
  const { lane, kafka, codec, slots, render, logger } = options;
  const consumer = kafka.consumer(consumerConfig(options.groupId, options.sessionTimeoutMs));
  await consumer.connect();
  await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
  return keepConsuming(consumer, logger, options.groupId, {
    partitionsConsumedConcurrently: options.concurrency,
    eachBatchAutoResolve: false,
    // Offsets of finished jobs are committed at most twice a second (and on every rebalance and stop), not after
    // each job: a commit per job costs a broker round trip on the path of the next one. A crash re-reads at most
    // the last half second of finished jobs; they are recognised as final and not converted again.
    autoCommitInterval: 500,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const waiting = batchWaiting(logger, `renderer (${lane} lane)`, batch, { heartbeat, isRunning, isStale });
      for (const message of batch.messages) {
        if (!waiting.active()) return;
        const beat = setInterval(() => void heartbeat().catch(() => {}), 2000);
        try {
          if (message.value) await handle(message.value, message.key?.toString('utf8') ?? null, Number(message.offset));
        } catch (error) {
          // Stopping or rebalancing: the offset stays unresolved and the job goes to whoever reads next.
          if (error instanceof ConsumerStoppedError) return;
          throw error;
        } finally {
          clearInterval(beat);
        }
        resolveOffset(message.offset);
      }

      async function handle(value: Buffer, key: string | null, offset: number): Promise<void> {
        const decoded = await settle(() => codec.decode(value), { ...waiting, tries: PERMANENT_TRIES });
        if (!decoded.ok) return park(key, null, decoded.error, decoded.tries, offset);
        const event = decoded.value;
        if (event.type !== 'JobQueued') return;
        const slot = await slots.acquire(lane);
        try {
          // renderJob settles every conversion outcome itself, with its own counted attempts; what reaches here is a
          // failure to record one, already tried: it is parked at once.
          const outcome = await settle(() => renderJob(render, event, waiting, slot), { ...waiting, tries: 1 });
          if (!outcome.ok) await park(event.job_id, event.type, outcome.error, outcome.tries, offset);
        } finally {
          slot.release();
        }
      }

      async function park(jobId: string | null, eventType: string | null, error: unknown, tries: number, offset: number): Promise<void> {
        await parkAndFailJob(
          { sql: options.sql, publisher: options.publisher, logger, worker: render.worker, waiting },
          { consumer: options.consumerName, topic: batch.topic, partition: batch.partition, offset, jobId, eventType, error, tries },
        );
      }
    },
  });
}
