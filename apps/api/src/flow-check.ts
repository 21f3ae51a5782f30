import type { Admin } from '@platformatic/kafka';
import type { Sql } from '@folio/db';
import { groupStatus } from '@folio/event-log';
import { countParked } from '@folio/parked-events';
import type { SyncLane } from './jobs/sync-lane.ts';

/**
 * Readiness means jobs flow, not only that the stores answer: every consumer group jobs need (the projector and each
 * renderer lane) must have a member consuming, or accepted jobs would wait with nobody to take them. The dispatcher
 * consumes no topic and does not decide it: callbacks wait for it (their schedule is durable), conversions do not,
 * and taking the API out of rotation for it would stop everything for the sake of the callbacks. The lag of each
 * group and the number of parked events are shown beside it; parked events do not make Folio unready (their
 * partitions moved on), they wait for an operator.
 */
export function flowCheck(admin: Admin, sql: Sql, groups: Array<{ name: string; group: string; topics: string[]; jobsNeedIt: boolean }>) {
  return async (): Promise<Record<string, unknown>> => {
    const [status, parked] = await Promise.all([groupStatus(admin, groups), countParked(sql)]);
    const idle = status
      .map((g) => groups.find((x) => x.group === g.group)!)
      .filter((g, i) => status[i]!.members === 0 && g.jobsNeedIt)
      .map((g) => g.name);
    const detail = {
      groups: Object.fromEntries(status.map((g, i) => [groups[i]!.name, { members: g.members, lag: g.lag }])),
      parked,
    };
    if (idle.length > 0) throw Object.assign(new Error(`nobody consumes for ${idle.join(', ')}: jobs would not flow`), { detail });
    return detail;
  };
}

/**
 * Whether synchronous calls are being taken, and the wait for a renderer the sync lane's backlog means (as of its last
 * reading, taken while sync calls come in). It never makes Folio unready: the backlog is the renderers', the same
 * for every API process, so a balancer that took them out of rotation for it would only stop the async intake and
 * the reads too; the calls themselves are refused at once meanwhile (rate_limited with Retry-After).
 */
export function syncLaneCheck(lane: Pick<SyncLane, 'expectedWaitMs' | 'latest' | 'wouldAdmit'>) {
  return async (): Promise<Record<string, unknown>> => {
    const latest = lane.latest();
    const wait = lane.expectedWaitMs();
    return {
      accepting_sync: lane.wouldAdmit(),
      expected_wait_ms: Number.isFinite(wait) ? Math.round(wait) : null,
      ...(latest ? { lag: latest.lag, renderers: latest.members, read_at: new Date(latest.at).toISOString() } : {}),
    };
  };
}
