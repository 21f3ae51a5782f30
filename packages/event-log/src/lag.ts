import type { Admin } from 'kafkajs';

export interface GroupStatus {
  group: string;
  /** Kafka's view of the group: Stable, PreparingRebalance, CompletingRebalance, Empty or Dead. */
  state: string;
  members: number;
  /** Events on the group's topics that it has not committed yet. */
  lag: number;
}

/**
 * How each consumer group is doing: its members and how far behind the end of its topics it is. A group with no
 * members consumes nothing, whatever its lag; a lag that keeps growing means its events are not flowing.
 */
export async function groupStatus(admin: Admin, groups: Array<{ group: string; topics: string[] }>): Promise<GroupStatus[]> {
  const { groups: described } = await admin.describeGroups(groups.map((g) => g.group));
  const ends = new Map<string, Map<number, number>>();
  for (const topic of new Set(groups.flatMap((g) => g.topics))) {
    ends.set(topic, new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)])));
  }
  return Promise.all(
    groups.map(async ({ group, topics }) => {
      const committed = await admin.fetchOffsets({ groupId: group, topics });
      let lag = 0;
      for (const { topic, partitions } of committed) {
        for (const p of partitions) {
          const end = ends.get(topic)?.get(p.partition) ?? 0;
          // -1: nothing committed yet, so everything in the partition is still to be read.
          lag += Math.max(0, end - (Number(p.offset) < 0 ? 0 : Number(p.offset)));
        }
      }
      const d = described.find((x) => x.groupId === group);
      return { group, state: d?.state ?? 'Dead', members: d?.members.length ?? 0, lag };
    }),
  );
}
