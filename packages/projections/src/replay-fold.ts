import { randomUUID } from 'node:crypto';
import type { Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import { consumeEvents, describeError, type KafkaClients } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { ReplayWriter } from './replay-writer.ts';

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
  kafka: KafkaClients;
  codec: EventCodec;
  topics: Topics;
  logger: Logger;
  /** Connections whose search path leads to the replay's tables. */
  sql: Sql;
  /** The schema of the live read models (the replay's tables copy their keys). */
  live: string;
  /** Prefix of the throwaway consumer group's name (the topic prefix, as every group has). */
  groupPrefix: string;
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
/** Records the replay takes at once: the writer's statements carry whole batches of every partition together. */
const BATCH = 10_000;

/**
 * Folds ranges of the log into the replay's tables with a consumer group of its own (a throwaway name, deleted at
 * the end), never the projector's: the live projection keeps its partitions, its offsets and its pace. It is the
 * consumer loop every consumer runs (`consumeEvents`), from the ranges' starts and committing nothing; batches are
 * folded by the `ReplayWriter` (the projection's fold and rows, written in bulk with their checkpoints), without
 * metering or notifying. An event that cannot be applied is reported, not parked: `parked_events` belongs to the
 * live consumers.
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

  const running = await consumeEvents({
    kafka: ctx.kafka,
    codec: ctx.codec,
    groupId,
    topics: allTopics(ctx.topics),
    sessionTimeoutMs: 30_000,
    logger: ctx.logger,
    what: 'replay',
    maxBatch: BATCH,
    tries: TRIES,
    startAt: ranges.map((r) => ({ topic: r.topic, partition: r.partition, offset: Math.min(r.from, r.until) })),
    handle: async ({ events, ends }) => {
      // Each partition's events within its range, written together (the writer gathers them into its next write).
      const writes: Array<Promise<number>> = [];
      for (const end of ends) {
        const range = byPartition.get(`${end.topic}/${end.partition}`);
        if (!range) continue;
        const nextOffset = Math.min(end.next_offset, range.until);
        if (nextOffset <= range.position) continue;
        const logged = events.filter((e) => e.topic === end.topic && e.partition === end.partition && e.offset >= range.position && e.offset < range.until);
        writes.push(writer.write(end.topic, end.partition, logged, nextOffset).then(() => logged.length));
      }
      const counts = await Promise.all(writes);
      // Partitions run together: count and move on after the await, never across it.
      applied += counts.reduce((a, b) => a + b, 0);
      for (const end of ends) {
        const range = byPartition.get(`${end.topic}/${end.partition}`);
        if (range) range.position = Math.max(range.position, Math.min(end.next_offset, range.until));
      }
      checkReached();
    },
    unapplicable: async (what) => {
      unapplied.push({ topic: what.topic, partition: what.partition, offset: what.offset, error: describeError(what.error) });
    },
  });

  let stopped: Promise<void> | undefined;
  return {
    applied: () => applied,
    reached,
    unapplied,
    stop() {
      stopped ??= (async () => {
        await running.stop().catch(() => {});
        const admin = ctx.kafka.admin();
        await admin.deleteGroups({ groups: [groupId] }).catch(() => {});
        await admin.close();
      })();
      return stopped;
    },
  };
}
