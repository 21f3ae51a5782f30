import type { Sql } from '@folio/db';
import type { PartitionBounds } from '@folio/event-log';
import { REPLAY_SCHEMA } from './replay-tables.ts';

export interface TableComparison {
  table: string;
  liveRows: number;
  replayRows: number;
  liveChecksum: string;
  replayChecksum: string;
  /** Compared rows only the live table has, only the replay has, and rows both have with different contents. */
  onlyLive: number;
  onlyReplay: number;
  differing: number;
  /** A few keys of rows that differ, to start looking from. */
  examples: string[];
}

export interface Verification {
  tables: TableComparison[];
  /** Jobs left out of the comparison, and why. */
  excluded: {
    /** Jobs the live projection changed with events past the replay's end offsets. */
    movedOn: number;
    /** Events the live projection applied past the replay's end offsets. */
    laterEvents: number;
    /** Jobs past their readability: the retention sweep deletes their rows on its own schedule. */
    expired: number;
  };
  equal: boolean;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Compares the replayed read models with the live ones, like with like. The replay folded the log up to the end
 * offsets it captured at its start, while the live projection has gone on: so the live history is compared up to
 * those offsets, jobs that any later event touched are left out on both sides (their live row already shows the
 * later event), and so are expired jobs (the sweep deletes their live rows when it next runs; a replay makes them
 * again). Everything else must be equal row for row: per table a count and an order-independent checksum (the sum
 * of each row's MD5), and the keys where the two differ. All live reads come from one snapshot.
 */
export async function verifyReplay(sql: Sql, live: string, ends: PartitionBounds[]): Promise<Verification> {
  const L = ident(live);
  const R = ident(REPLAY_SCHEMA);
  const endsSql = `unnest($1::text[], $2::int[], $3::bigint[]) as e(topic, partition, next_offset)`;
  const params = [ends.map((e) => e.topic), ends.map((e) => e.partition), ends.map((e) => e.high)];
  // History rows of partitions the replay did not know (made after it began) are all "later".
  const later = `select h.job_id, h.event_id from ${L}.job_history h left join ${endsSql} using (topic, partition)
    where e.next_offset is null or h."offset" >= e.next_offset`;
  const expired = `select job_id from ${R}.jobs where expires_at <= now() union select job_id from ${L}.jobs where expires_at <= now()`;
  const within = `select h.event_id from ${L}.job_history h join ${endsSql} using (topic, partition) where h."offset" < e.next_offset`;
  const sides: Array<{ table: string; key: string; live: string; replay: string }> = [
    {
      table: 'jobs',
      key: 'job_id',
      live: `select job_id::text as k, md5(t::text) as h from ${L}.jobs t where job_id not in (select job_id from later) and job_id not in (select job_id from expired)`,
      replay: `select job_id::text as k, md5(t::text) as h from ${R}.jobs t where job_id not in (select job_id from later) and job_id not in (select job_id from expired)`,
    },
    {
      table: 'job_history',
      key: 'event_id',
      live: `select event_id::text as k, md5(t::text) as h from ${L}.job_history t where event_id in (select event_id from within) and job_id not in (select job_id from expired)`,
      replay: `select event_id::text as k, md5(t::text) as h from ${R}.job_history t where job_id not in (select job_id from expired)`,
    },
    {
      table: 'delivery_attempts',
      key: 'event_id',
      live: `select event_id::text as k, md5(t::text) as h from ${L}.delivery_attempts t where event_id in (select event_id from within) and job_id not in (select job_id from expired)`,
      replay: `select event_id::text as k, md5(t::text) as h from ${R}.delivery_attempts t where job_id not in (select job_id from expired)`,
    },
    {
      // The replay's checkpoints are the end offsets; the live ones are compared as they stood there.
      table: 'projection_checkpoints',
      key: 'topic/partition',
      live: `select topic || '/' || partition as k, md5(topic || '/' || partition || '@' || e.next_offset) as h
        from ${L}.projection_checkpoints t join ${endsSql} using (topic, partition) where t.next_offset >= e.next_offset and e.next_offset > 0`,
      replay: `select topic || '/' || partition as k, md5(topic || '/' || partition || '@' || t.next_offset) as h from ${R}.projection_checkpoints t where t.next_offset > 0`,
    },
  ];

  return sql.begin('isolation level repeatable read', async (tx) => {
    const tables: TableComparison[] = [];
    for (const side of sides) {
      const query = `with later as (${later}), expired as (${expired}), within as (${within}),
        l as (${side.live}), r as (${side.replay}),
        diff as (select coalesce(l.k, r.k) as k, l.k is null as only_replay, r.k is null as only_live from l full join r on l.k = r.k where l.h is distinct from r.h)
        select (select count(*) from l)::int as live_rows, (select count(*) from r)::int as replay_rows,
          (select ${checksum('l')}) as live_checksum, (select ${checksum('r')}) as replay_checksum,
          (select count(*) from diff where only_live)::int as only_live, (select count(*) from diff where only_replay)::int as only_replay,
          (select count(*) from diff where not only_live and not only_replay)::int as differing,
          (select coalesce(array_agg(k order by k), '{}') from (select k from diff order by k limit 5) x) as examples`;
      const [row] = (await tx.unsafe(query, params as never)) as unknown as [
        { live_rows: number; replay_rows: number; live_checksum: string; replay_checksum: string; only_live: number; only_replay: number; differing: number; examples: string[] },
      ];
      tables.push({
        table: side.table,
        liveRows: row.live_rows,
        replayRows: row.replay_rows,
        liveChecksum: row.live_checksum,
        replayChecksum: row.replay_checksum,
        onlyLive: row.only_live,
        onlyReplay: row.only_replay,
        differing: row.differing,
        examples: row.examples,
      });
    }
    const [counts] = (await tx.unsafe(
      `with later as (${later}), expired as (${expired})
       select (select count(distinct job_id) from later)::int as moved_on, (select count(*) from later)::int as later_events,
         (select count(*) from expired)::int as expired`,
      params as never,
    )) as unknown as [{ moved_on: number; later_events: number; expired: number }];
    return {
      tables,
      excluded: { movedOn: counts.moved_on, laterEvents: counts.later_events, expired: counts.expired },
      equal: tables.every((t) => t.onlyLive + t.onlyReplay + t.differing === 0),
    };
  });
}

/** An order-independent checksum of a set of row hashes: the sum of their first 60 bits, shown as 15 hex digits. */
function checksum(relation: string): string {
  return `lpad(to_hex((coalesce(sum(('x' || substr(h, 1, 15))::bit(60)::bigint::numeric), 0) % 1152921504606846976)::bigint), 15, '0') from ${relation}`;
}
