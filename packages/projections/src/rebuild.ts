import type { Kafka } from 'kafkajs';
import { READ_MODEL_TABLES, type Sql } from '@folio/db';
import { allTopics } from '@folio/events';
import { PROJECTION_LOCK, startProjection, type ProjectionOptions } from './runner.ts';

export class ProjectorRunningError extends Error {
  constructor() {
    super('a projector is running: stop it before rebuilding the read models');
    this.name = 'ProjectorRunningError';
  }
}

/**
 * Rebuilds the read models from offset 0: empties them, rewinds the projector's consumer group to the start of the
 * log and folds every event again, until each partition reaches the end it had when the rebuild began. Runs only
 * while no projector does (their shared lock excludes this exclusive one). `onProgress` gets (done, total) events.
 */
export async function rebuildReadModels(
  options: ProjectionOptions & { onProgress?: (done: number, total: number) => void },
): Promise<{ events: number }> {
  const { kafka, sql, topics, groupId } = options;
  const guard = await sql.reserve();
  try {
    const [{ locked }] = (await guard`select pg_try_advisory_lock(${PROJECTION_LOCK}) as locked`) as unknown as [
      { locked: boolean },
    ];
    // The lock is the guard, and the group a second one: a projector whose lock connection died with a Postgres
    // restart still consumes, and a rebuild beside it would race it.
    if (!locked || (await groupMembers(kafka, groupId)) > 0) throw new ProjectorRunningError();
    await guard.unsafe(`truncate ${READ_MODEL_TABLES.join(', ')}`);
    await rewindGroup(kafka, groupId, allTopics(topics));
    const ends = await logEnds(kafka, allTopics(topics));
    const total = ends.reduce((n, e) => n + (e.high - e.low), 0);
    // The rebuild's own projection takes the shared lock: release the exclusive one first.
    await guard`select pg_advisory_unlock(${PROJECTION_LOCK})`;
    const projection = await startProjection({ ...options, failParkedJobs: false });
    try {
      for (;;) {
        const done = await progress(sql, ends);
        options.onProgress?.(done, total);
        if (done >= total) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await projection.stop();
    }
    return { events: total };
  } finally {
    await guard`select pg_advisory_unlock_all()`.catch(() => {});
    guard.release();
  }
}

async function groupMembers(kafka: Kafka, groupId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    return groups[0]?.members.length ?? 0;
  } finally {
    await admin.disconnect();
  }
}

interface PartitionEnd {
  topic: string;
  partition: number;
  low: number;
  high: number;
}

async function logEnds(kafka: Kafka, topicNames: string[]): Promise<PartitionEnd[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends: PartitionEnd[] = [];
    for (const topic of topicNames) {
      for (const p of await admin.fetchTopicOffsets(topic)) {
        ends.push({ topic, partition: p.partition, low: Number(p.low), high: Number(p.high) });
      }
    }
    return ends;
  } finally {
    await admin.disconnect();
  }
}

async function rewindGroup(kafka: Kafka, groupId: string, topicNames: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (const topic of topicNames) await admin.resetOffsets({ groupId, topic, earliest: true });
  } finally {
    await admin.disconnect();
  }
}

async function progress(sql: Sql, ends: PartitionEnd[]): Promise<number> {
  const rows = await sql<{ topic: string; partition: number; next_offset: number }[]>`
    select topic, partition, next_offset from projection_checkpoints`;
  const at = new Map(rows.map((r) => [`${r.topic}/${r.partition}`, Number(r.next_offset)]));
  return ends.reduce((n, e) => n + Math.min(e.high, Math.max(e.low, at.get(`${e.topic}/${e.partition}`) ?? e.low)) - e.low, 0);
}
