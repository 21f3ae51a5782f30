import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import type { Logger } from '@folio/logging';

export interface KeptConsumer {
  /** Stops restarting and disconnects (a graceful stop: the group gets the partitions back at once). */
  stop(): Promise<void>;
}

/** Waits before a consumer kafkajs gave up on is started again: 1 s, doubling to 30 s, back to 1 s once it joins. */
export function restartDelayMs(restarts: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(restarts, 5));
}

/**
 * Runs a consumer and keeps it running for as long as the process lives (invariant 10, docs/invariants.md).
 *
 * kafkajs restarts a crashed consumer only when the error underneath is marked retriable. After a broker restart under
 * load its own retries end in a KafkaJSNonRetriableError ("Failed to find group coordinator", "This is not the
 * correct coordinator for this group") although the cause is the broker being away: the consumer then stays
 * disconnected while the process runs on, the group has no member, and every event on its topics waits forever. Here
 * any crash kafkajs will not restart from is restarted with backoff: the subscription is kept by the consumer, and
 * offsets resume from the group's committed position, so nothing is skipped.
 */
export async function keepConsuming(consumer: Consumer, logger: Logger, groupId: string, run: ConsumerRunConfig): Promise<KeptConsumer> {
  let stopping = false;
  let restarts = 0;
  let timer: NodeJS.Timeout | undefined;

  const restartLater = (error: unknown): void => {
    if (stopping) return;
    const delayMs = restartDelayMs(restarts++);
    logger.error({ err: error, group: groupId, delay_ms: delayMs }, 'consumer stopped by an error its client does not restart from: restarting it');
    timer = setTimeout(() => {
      if (stopping) return;
      consumer
        .connect()
        .then(() => consumer.run(run))
        .catch(restartLater);
    }, delayMs);
  };
  const offCrash = consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) restartLater(payload.error);
  });
  const offJoin = consumer.on(consumer.events.GROUP_JOIN, () => {
    restarts = 0;
  });

  await consumer.run(run);
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      offCrash();
      offJoin();
      await consumer.disconnect();
    },
  };
}
