import type { Kafka } from 'kafkajs';
import type { EventCodec, Lane } from '@folio/events';
import { consumerConfig } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { renderJob, type RenderContext } from './render-job.ts';
import type { RenderSlots } from './slots.ts';

/**
 * One lane's consumer: takes JobQueued events from the lane's topic, as a member of the lane's renderer group.
 * Partitions are consumed concurrently (bounded by the shared slots); within a partition, jobs run in order. The
 * consumer heartbeats while a job runs, so a long conversion is not mistaken for a dead member.
 */
export async function startLane(options: {
  lane: Lane;
  topic: string;
  groupId: string;
  kafka: Kafka;
  codec: EventCodec;
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
  await consumer.run({
    partitionsConsumedConcurrently: options.concurrency,
    // Offsets of finished jobs are committed at most twice a second (and on every rebalance and stop), not after
    // each job: a commit per job costs a broker round trip on the path of the next one. A crash re-renders at most
    // the last half second of finished jobs; their second terminal event changes nothing (first one wins).
    autoCommitInterval: 500,
    eachMessage: async ({ message, heartbeat }) => {
      if (!message.value) return;
      let event;
      try {
        event = await codec.decode(message.value);
      } catch (error) {
        logger.error({ err: error, lane, offset: message.offset }, 'undecodable request skipped');
        return;
      }
      if (event.type !== 'JobQueued') return;
      const release = await slots.acquire(lane);
      const beat = setInterval(() => void heartbeat().catch(() => {}), 2000);
      try {
        await renderJob(render, event);
      } finally {
        clearInterval(beat);
        release();
      }
    },
  });
  return { stop: () => consumer.disconnect() };
}
