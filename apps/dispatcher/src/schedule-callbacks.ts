import type { Kafka } from 'kafkajs';
import type { Sql } from '@folio/db';
import type { EventCodec } from '@folio/events';
import {
  batchWaiting,
  ConsumerStoppedError,
  consumerConfig,
  keepConsuming,
  retryTransient,
  settle,
  type KeptConsumer,
  type RetryContext,
} from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { parkAndFailJob } from '@folio/parked-events';
import { scheduleCallbacks, scheduleRedelivery } from '@folio/webhooks';

export interface SchedulingOptions {
  kafka: Kafka;
  sql: Sql;
  codec: EventCodec;
  lifecycleTopic: string;
  groupId: string;
  /** The group's name without the topic prefix, as parked events record it. */
  consumerName: string;
  sessionTimeoutMs: number;
  logger: Logger;
  /** Told when callbacks were newly scheduled, so they go out at once rather than at the next poll. */
  onScheduled(): void;
}

/** Tries an event that cannot be decoded gets before it is parked. */
const PERMANENT_TRIES = 3;

/**
 * Turns terminal events into owed callbacks. The dispatcher group reads the lifecycle topic; for each batch it first
 * waits until the projector has read past the batch (its checkpoint), because the callback must not leave before the
 * job is final and readable at status_url, and its body is the read model's job. Then every job of the batch that
 * is final and has a webhook_url gets a row in the durable schedule, and only then is the offset committed: a crash
 * before that reads the batch again, and scheduling is idempotent.
 *
 * No event can stop it (invariant 10, docs/invariants.md): one that does not decode is parked (the projector, which
 * reads the same event, fails its job); while Postgres or the broker is away it waits on its offset.
 */
export async function startScheduling(options: SchedulingOptions): Promise<KeptConsumer> {
  const { kafka, sql, codec, logger } = options;
  const consumer = kafka.consumer(consumerConfig(options.groupId, options.sessionTimeoutMs));
  await consumer.connect();
  await consumer.subscribe({ topics: [options.lifecycleTopic], fromBeginning: true });
  return keepConsuming(consumer, logger, options.groupId, {
    eachBatchAutoResolve: false,
    autoCommitInterval: 500,
    partitionsConsumedConcurrently: 3,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      if (batch.isEmpty() || !isRunning() || isStale()) return;
      const waiting = batchWaiting(logger, 'scheduling callbacks', batch, { heartbeat, isRunning, isStale });
      try {
        const finished = new Set<string>();
        const redeliveries: Array<{ jobId: string; eventId: string }> = [];
        for (const message of batch.messages) {
          if (!message.value) continue;
          const decoded = await settle(() => codec.decode(message.value!), { ...waiting, tries: PERMANENT_TRIES });
          if (decoded.ok) {
            if (decoded.value.type === 'JobSucceeded' || decoded.value.type === 'JobFailed') finished.add(decoded.value.job_id);
            if (decoded.value.type === 'WebhookRedeliveryRequested') redeliveries.push({ jobId: decoded.value.job_id, eventId: decoded.value.event_id });
            continue;
          }
          await parkAndFailJob(
            { sql, publisher: null, logger, worker: 'dispatcher', waiting },
            {
              consumer: options.consumerName,
              topic: batch.topic,
              partition: batch.partition,
              offset: Number(message.offset),
              jobId: message.key?.toString('utf8') ?? null,
              eventType: null,
              error: decoded.error,
              tries: decoded.tries,
            },
          );
        }
        const owing = finished.size > 0 ? await retryTransient(() => mayOweCallbacks(sql, [...finished]), waiting) : [];
        if (owing.length > 0) {
          await projectedPast(sql, batch.topic, batch.partition, Number(batch.lastOffset()), waiting, logger);
          await requestsProjected(sql, owing, waiting, logger);
          const scheduled = await retryTransient(() => scheduleCallbacks(sql, owing), waiting);
          if (scheduled > 0) {
            logger.debug({ scheduled, topic: batch.topic, partition: batch.partition }, 'callbacks scheduled');
            options.onScheduled();
          }
        }
        // After the batch's own terminal events are scheduled: a request comes after its job's end in the partition.
        let redelivering = 0;
        for (const { jobId, eventId } of redeliveries) {
          if (await retryTransient(() => scheduleRedelivery(sql, jobId, eventId), waiting)) redelivering++;
        }
        if (redelivering > 0) options.onScheduled();
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
}

/**
 * The finished jobs that may owe a callback: all but those whose request is in the read model without a webhook_url
 * (only a job's JobQueued sets it). Most jobs have none, and their request is projected long before they finish, so
 * a batch of them is settled by this one look, without waiting on the projector for jobs that owe nothing.
 */
async function mayOweCallbacks(sql: Sql, jobIds: string[]): Promise<string[]> {
  const owingNothing = await sql<Array<{ job_id: string }>>`
    select job_id from jobs where job_id in ${sql(jobIds)} and key_id is not null and webhook_url is null`;
  const settled = new Set(owingNothing.map((r) => r.job_id));
  return jobIds.filter((id) => !settled.has(id));
}

/**
 * Waits until the projector's checkpoint for this partition is past `offset`: every event up to it has been applied
 * (or parked) in the read models. The projector falling behind is a dependency being slow, not a fault of the event:
 * the wait lasts as long as it does, heartbeating, and ends at once if the consumer stops.
 */
async function projectedPast(sql: Sql, topic: string, partition: number, offset: number, waiting: RetryContext, logger: Logger): Promise<void> {
  const since = Date.now();
  let warned = since;
  for (;;) {
    const [row] = await retryTransient(
      () => sql<Array<{ next_offset: number }>>`select next_offset from projection_checkpoints where topic = ${topic} and partition = ${partition}`,
      waiting,
    );
    if (row && Number(row.next_offset) > offset) return;
    if (!waiting.active()) throw new ConsumerStoppedError();
    if (Date.now() - warned > 30_000) {
      warned = Date.now();
      logger.warn({ topic, partition, offset, waited_ms: warned - since }, 'callbacks wait for the projector to catch up');
    }
    // The projector is usually a few milliseconds behind: look again soon, and less often once it is clearly away.
    await new Promise((r) => setTimeout(r, Date.now() - since < 5000 ? 10 : 1000));
    await waiting.heartbeat?.().catch(() => {});
  }
}

/**
 * Waits until the request (JobQueued) of each of these jobs is projected too: it travels on a lane topic, not the
 * lifecycle one, and the projector reads topics independently, so a job can be final in the read model before its
 * key and webhook_url are there. Scheduling it then would miss the callback for good. A request the projector parked
 * will never arrive: such a job owes no callback (its JobFailed says why), and is not waited for.
 */
async function requestsProjected(sql: Sql, jobIds: string[], waiting: RetryContext, logger: Logger): Promise<void> {
  const since = Date.now();
  let warned = since;
  for (;;) {
    const pending = await retryTransient(
      () => sql<Array<{ job_id: string }>>`
        select job_id from jobs
        where job_id in ${sql(jobIds)} and key_id is null
          and not exists (select 1 from parked_events p where p.consumer = 'folio-projector' and p.job_id = jobs.job_id::text)`,
      waiting,
    );
    if (pending.length === 0) return;
    if (!waiting.active()) throw new ConsumerStoppedError();
    if (Date.now() - warned > 30_000) {
      warned = Date.now();
      logger.warn({ jobs: pending.length, waited_ms: warned - since }, 'callbacks wait for the projector to read the jobs\' requests');
    }
    await new Promise((r) => setTimeout(r, Date.now() - since < 5000 ? 10 : 1000));
    await waiting.heartbeat?.().catch(() => {});
  }
}
