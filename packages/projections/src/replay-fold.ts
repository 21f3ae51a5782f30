import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import { batchWaiting, consumerConfig, describeError, settle, type RetryContext } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { ReplayWriter } from './replay-writer.ts';
import type { LoggedEvent } from './store.ts';

/** A stretch of one partition to fold: from `from` up to, not including, `until` (Infinity: whatever comes). */
export interface FoldRange {
  topic: string;
  partition: number;
  from: number;
  until: number;
}

/** An event the replay could not apply (it cannot be decoded, or the fold refuses it): counted and reported, never parked. */
export interface Unapplied {
  topic: string;
  partition: number;
  offset: number;
  error: string;
}

export interface FoldContext {
  kafka: Kafka;
  codec: EventCodec;
  topics: Topics;
  logger: Logger;
  /** Connections whose search path leads to the replay's tables. */
  sql: Sql;
  /** The schema of the live read models (the replay's tables copy their keys). */
  live: string;
  /** Prefix of the throwaway consumer group's name (the topic prefix, as every group has). */
  groupPrefix: string;
  partitionsConsumedConcurrently?: number;
}

export interface RunningFold {
  /** Events applied so far. */
  applied(): number;
  /** Settles once every bounded range has been folded to its end. */
  reached: Promise<void>;
  unapplied: Unapplied[];
  stop(): Promise<void>;
}

/** Tries a message gets before the replay counts it as unapplied. */
const TRIES = 3;

/**
 * Folds ranges of the log into the replay's tables with a consumer group of its own (a throwaway name, deleted at
 * the end), never the projector's: the live projection keeps its partitions, its offsets and its pace. Batches are
 * folded by the `ReplayWriter` (the projection's fold and rows, written in bulk with their checkpoints), without
 * metering or notifying. An event that cannot be applied is reported, not parked: `parked_events` belongs
 * to the live consumers.
 */
export async function foldLog(ctx: FoldContext, ranges: FoldRange[], { fromEmpty }: { fromEmpty: boolean }): Promise<RunningFold> {
  const groupId = `${ctx.groupPrefix}folio-replay-${randomUUID()}`;
  const byPartition = new Map(ranges.map((r) => [`${r.topic}/${r.partition}`, { ...r, position: r.from }]));
  const unapplied: Unapplied[] = [];
  let applied = 0;
  const writer = new ReplayWriter(ctx.sql, { fromEmpty, live: ctx.live });
  let settleReached!: () => void;
  // Once every range is folded, the job rows the writer held back are written.
  const reached = new Promise<void>((resolve) => (settleReached = resolve)).then(() => writer.flush());
  const checkReached = () => {
    if ([...byPartition.values()].every((r) => r.position >= r.until)) settleReached();
  };
  checkReached();

  const consumer = ctx.kafka.consumer({ ...consumerConfig(groupId, 30_000), maxBytesPerPartition: 4 * 1024 * 1024, maxBytes: 32 * 1024 * 1024 });
  await consumer.connect();
  await consumer.subscribe({ topics: allTopics(ctx.topics), fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    // A topic's partitions all at once: their batches queue while the writer's appends run, and go in the next.
    partitionsConsumedConcurrently: ctx.partitionsConsumedConcurrently ?? 12,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const range = byPartition.get(`${batch.topic}/${batch.partition}`);
      if (!range || batch.isEmpty() || !isRunning() || isStale()) return;
      const messages = batch.messages.filter((m) => Number(m.offset) >= range.position && Number(m.offset) < range.until);
      const nextOffset = Math.min(Number(batch.lastOffset()) + 1, range.until);
      if (nextOffset > range.position) {
        const waiting = batchWaiting(ctx.logger, 'replay', batch, { heartbeat, isRunning, isStale });
        // Partitions run concurrently: add after the await, never across it.
        const n = await foldBatch(ctx, writer, waiting, unapplied, batch.topic, batch.partition, messages, nextOffset);
        applied += n;
        range.position = nextOffset;
        checkReached();
      }
      resolveOffset(batch.lastOffset());
      await heartbeat();
    },
  });
  // A fresh group starts at the log's beginning; a range that starts later is sought to (allowed once the consumer runs).
  for (const r of ranges) if (r.from > 0 && r.from < r.until) consumer.seek({ topic: r.topic, partition: r.partition, offset: String(r.from) });

  let stopped: Promise<void> | undefined;
  return {
    applied: () => applied,
    reached,
    unapplied,
    stop() {
      stopped ??= (async () => {
        await consumer.disconnect().catch(() => {});
        const admin = ctx.kafka.admin();
        await admin.connect();
        await admin.deleteGroups([groupId]).catch(() => {});
        await admin.disconnect();
      })();
      return stopped;
    },
  };
}

type Message = { offset: string; value: Buffer | null };

/** One partition's batch: decoded, applied whole, or event by event when the whole cannot be applied. */
async function foldBatch(
  ctx: FoldContext,
  writer: ReplayWriter,
  waiting: RetryContext,
  unapplied: Unapplied[],
  topic: string,
  partition: number,
  messages: Message[],
  nextOffset: number,
): Promise<number> {
  const decoded: Array<{ offset: number; event: LoggedEvent | null; error: unknown }> = [];
  for (const m of messages) {
    if (!m.value) continue;
    const offset = Number(m.offset);
    const outcome = await settle(() => ctx.codec.decode(m.value!), { ...waiting, tries: TRIES });
    decoded.push(outcome.ok ? { offset, event: { topic, partition, offset, event: outcome.value }, error: null } : { offset, event: null, error: outcome.error });
  }
  const events = decoded.flatMap((d) => (d.event ? [d.event] : []));
  if (events.length === decoded.length) {
    const whole = await settle(() => writer.write(topic, partition, events, nextOffset), { ...waiting, tries: 1 });
    if (whole.ok) return events.length;
  }
  let applied = 0;
  for (const d of decoded) {
    const outcome = d.event
      ? await settle(() => writer.write(topic, partition, [d.event!], d.offset + 1), { ...waiting, tries: TRIES })
      : ({ ok: false, error: d.error } as const);
    if (outcome.ok) applied++;
    else unapplied.push({ topic, partition, offset: d.offset, error: describeError(outcome.error) });
  }
  await writer.write(topic, partition, [], nextOffset);
  return applied;
}
