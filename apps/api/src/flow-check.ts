import type { Admin } from '@platformatic/kafka';
import type { Sql } from '@folio/db';
import { groupStatus } from '@folio/event-log';
import { countParked } from '@folio/parked-events';

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
