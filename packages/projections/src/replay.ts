import type postgres from 'postgres';
import { connect, type Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import type { Logger } from '@folio/logging';
import { partitionBounds, type KafkaClients, type PartitionBounds } from '@folio/event-log';
import { foldLog, type FoldRange, type Unapplied } from './replay-fold.ts';
import { createReplayTables, dropReplayTables, finishReplayTables, liveSchema, lockLiveTables, REPLAY_SCHEMA, swapTables, type Statements } from './replay-tables.ts';
import { actOnChanges } from './effects.ts';
import { normalise } from './rows.ts';
import type { JobRow } from './job.ts';
import { verifyReplay, type Verification } from './replay-verify.ts';
import { takeReplayLock } from './replay-lock.ts';

export interface ReplayProgress {
  phase: 'replaying' | 'indexing' | 'waiting for the live projection' | 'verifying' | 'catching up' | 'swapping';
  done: number;
  total: number;
  /** Seconds since the fold began. */
  seconds: number;
}

export interface ReplayOptions {
  kafka: KafkaClients;
  codec: EventCodec;
  topics: Topics;
  logger: Logger;
  /** The live database. */
  sql: Sql;
  databaseUrl: string;
  /** The topic prefix: the replay's consumer group is named under it like every group. */
  groupPrefix: string;
  /** Swap the replayed tables in once verified (whatever the verification found: a replay after a fix differs on purpose). */
  swap: boolean;
  onProgress?: (progress: ReplayProgress) => void;
  /** How long to wait for the live projection to reach the replay's end offsets before comparing, and to catch up at a swap. */
  waitMs?: number;
}

export interface ReplayReport {
  events: number;
  /** Seconds spent folding the log (the bulk of a replay; what bench/replay measures). */
  foldSeconds: number;
  ends: PartitionBounds[];
  verification: Verification;
  /** Events the live projection had not reached when the comparison began (it was behind or stopped). */
  liveBehind: number;
  unapplied: Unapplied[];
  swapped: boolean;
}

/**
 * Rebuilds every read model from the log into fresh tables beside the live ones, verifies them against the live
 * tables and, when asked, swaps them in. Safe beside a running service: the live projection keeps its tables, its
 * consumer group and its pace throughout; only the swap holds the live read models locked, for the moment it takes
 * the replay to reach the live projection's checkpoints and rename the tables.
 *
 * 1. The end offsets of every partition are taken; fresh tables are made in `folio_replay`.
 * 2. A consumer group of the replay's own folds each partition from its start to that end.
 * 3. The secondary indexes are built and the tables made logged; the comparison waits (a while) for the live
 *    projection to pass the end offsets, then compares like with like (`verifyReplay`).
 * 4. With `swap`: a second fold carries the replay past the end offsets and keeps pace with the log; then, in one
 *    transaction, the live read models are locked, the fold is let reach every live checkpoint, and the tables
 *    trade places. The checkpoints travel with their tables: the live projection, when it next writes, reads the
 *    checkpoints of the tables it writes to, skips what the replay already applied, and goes on from there.
 */
export async function replayReadModels(options: ReplayOptions): Promise<ReplayReport> {
  const { sql, kafka, topics } = options;
  const waitMs = options.waitMs ?? 30_000;
  const lock = await takeReplayLock(sql);
  const replayDb = connect(options.databaseUrl, { max: 4, searchPath: REPLAY_SCHEMA });
  let started = performance.now();
  const progress = (phase: ReplayProgress['phase'], done = 0, total = 0) =>
    options.onProgress?.({ phase, done, total, seconds: (performance.now() - started) / 1000 });
  try {
    const live = await liveSchema(sql);
    await createReplayTables(sql, live);
    const ends = await logEnds(kafka, allTopics(topics));
    const total = ends.reduce((n, e) => n + (e.high - e.low), 0);
    const ctx = { ...options, sql: replayDb.sql, live };

    started = performance.now();
    const fold = await foldLog(ctx, ends.map((e) => ({ topic: e.topic, partition: e.partition, from: e.low, until: e.high })), { fromEmpty: true });
    const ticker = setInterval(() => progress('replaying', fold.applied(), total), 200);
    try {
      await fold.reached;
    } finally {
      clearInterval(ticker);
      await fold.stop();
    }
    const foldSeconds = (performance.now() - started) / 1000;
    progress('replaying', total, total);
    // Every partition's checkpoint is its end, the empty ones too, so a swap can compare each with the live one.
    await replayDb.sql`
      insert into projection_checkpoints (topic, partition, next_offset)
      select * from unnest(${ends.map((e) => e.topic)}::text[], ${ends.map((e) => e.partition)}::int[], ${ends.map((e) => e.high)}::bigint[])
      on conflict (topic, partition) do update set next_offset = greatest(projection_checkpoints.next_offset, excluded.next_offset)`;

    progress('indexing');
    await finishReplayTables(sql, live);
    progress('waiting for the live projection');
    const liveBehind = await waitForLive(sql, live, ends, waitMs);
    progress('verifying');
    // Tables another replay may have rebuilt meanwhile are not compared, let alone swapped in.
    await lock.held();
    const verification = await verifyReplay(sql, live, ends);

    let swapped = false;
    if (options.swap) {
      progress('catching up');
      const checkpoints = await readCheckpoints(replayDb.sql, REPLAY_SCHEMA);
      const ranges: FoldRange[] = ends.map((e) => ({ ...e, from: checkpoints.get(`${e.topic}/${e.partition}`) ?? e.high, until: Infinity }));
      const follow = await foldLog(ctx, ranges, { fromEmpty: false });
      try {
        await sql.begin(async (tx) => {
          progress('swapping');
          await lockLiveTables(tx, live);
          await waitUntil(async () => behind(await readCheckpoints(tx, live), await readCheckpoints(tx, REPLAY_SCHEMA)) === 0, waitMs, 'the replay to reach the live checkpoints');
          // No replay transaction may write while the tables change places.
          await follow.stop();
          await settleAhead(tx, live);
          await lock.held();
          await swapTables(tx, live);
        });
      } finally {
        await follow.stop();
      }
      swapped = true;
    }
    return { events: fold.applied(), foldSeconds, ends, verification, liveBehind, unapplied: fold.unapplied, swapped };
  } finally {
    await replayDb.close();
    await lock.release();
  }
}

export { dropReplayTables };

/**
 * The replay may have folded events the live projection had not reached when it was locked; the live projection
 * will skip them (the checkpoints say they are applied), so what it does beside the rows is done here, in the swap's
 * transaction (`actOnChanges`): the meter settles the jobs they ended, their callbacks become owed (each idempotent:
 * a job is counted and scheduled once), redeliveries asked for meanwhile are owed, and their change is announced to
 * waiting sync requests.
 */
async function settleAhead(tx: postgres.TransactionSql, live: string): Promise<void> {
  const ahead = `select h.job_id, h.event_id, h.type from "${REPLAY_SCHEMA}".job_history h
       left join "${live}".projection_checkpoints c using (topic, partition)
       where c.next_offset is null or h."offset" >= c.next_offset`;
  const [rows, requests] = await Promise.all([
    tx.unsafe<JobRow[]>(`select j.* from "${REPLAY_SCHEMA}".jobs j where j.job_id in (select job_id from (${ahead}) a)`),
    tx.unsafe<Array<{ job_id: string; event_id: string }>>(`select job_id, event_id from (${ahead}) a where type = 'WebhookRedeliveryRequested'`),
  ]);
  await Promise.all(actOnChanges(tx, rows.map(normalise), [...requests]));
}

async function logEnds(kafka: KafkaClients, topicNames: string[]): Promise<PartitionBounds[]> {
  const admin = kafka.admin();
  try {
    return await partitionBounds(admin, topicNames);
  } finally {
    await admin.close();
  }
}

async function readCheckpoints(sql: Statements, schema: string): Promise<Map<string, number>> {
  const rows = await sql.unsafe<{ topic: string; partition: number; next_offset: number }[]>(
    `select topic, partition, next_offset from "${schema}".projection_checkpoints`,
  );
  return new Map(rows.map((r) => [`${r.topic}/${r.partition}`, Number(r.next_offset)]));
}

/** Events `ahead` has applied that `behindOf` has not, summed over partitions. */
function behind(ahead: Map<string, number>, behindOf: Map<string, number>): number {
  let n = 0;
  for (const [tp, offset] of ahead) n += Math.max(0, offset - (behindOf.get(tp) ?? 0));
  return n;
}

/** Waits (at most `waitMs`) for the live projection to pass the end offsets; returns how far it is still behind. */
async function waitForLive(sql: Sql, live: string, ends: PartitionBounds[], waitMs: number): Promise<number> {
  const target = new Map(ends.filter((e) => e.high > e.low).map((e) => [`${e.topic}/${e.partition}`, e.high]));
  const deadline = Date.now() + waitMs;
  for (;;) {
    const n = behind(target, await readCheckpoints(sql, live));
    if (n === 0 || Date.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitUntil(probe: () => Promise<boolean>, waitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${waitMs} ms: nothing was swapped`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
