import { ListOffsetTimestamps, type Admin } from '@platformatic/kafka';

export interface GroupStatus {
  group: string;
  /** Kafka's view of the group: Stable, PreparingRebalance, CompletingRebalance, Empty or Dead. */
  state: string;
  members: number;
  /** Events on the group's topics that it has not committed yet. */
  lag: number;
  /** Its committed offsets summed over its topics' partitions (a partition with none: its start): how far it has come. */
  position: number;
  /** The lag of each partition of its topics. */
  partitions: Array<{ topic: string; partition: number; lag: number }>;
}

/** Where each partition of these topics begins and ends (the next offset to be written). */
export interface PartitionBounds {
  topic: string;
  partition: number;
  low: number;
  high: number;
}

/** The first and the next offset of every partition of these topics. */
export async function partitionBounds(admin: Admin, topics: string[]): Promise<PartitionBounds[]> {
  const { topics: described } = await admin.metadata({ topics });
  const request = (timestamp: bigint) =>
    admin.listOffsets({
      topics: topics.map((name) => ({
        name,
        partitions: Array.from({ length: described.get(name)!.partitionsCount }, (_, partitionIndex) => ({ partitionIndex, timestamp })),
      })),
    });
  const [lows, highs] = await Promise.all([request(ListOffsetTimestamps.EARLIEST), request(ListOffsetTimestamps.LATEST)]);
  const low = new Map(lows.flatMap((t) => t.partitions.map((p) => [`${t.name}/${p.partitionIndex}`, Number(p.offset)] as const)));
  return highs
    .flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, low: low.get(`${t.name}/${p.partitionIndex}`) ?? 0, high: Number(p.offset) })))
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

/**
 * How each consumer group is doing: its members and how far behind the end of its topics it is. A group with no
 * members consumes nothing, whatever its lag; a lag that keeps growing means its events are not flowing.
 */
export async function groupStatus(admin: Admin, groups: Array<{ group: string; topics: string[] }>): Promise<GroupStatus[]> {
  const topics = [...new Set(groups.flatMap((g) => g.topics))];
  const bounds = await partitionBounds(admin, topics);
  const partitionsOf = (name: string) => bounds.filter((b) => b.topic === name).map((b) => b.partition);
  const [described, committed] = await Promise.all([
    admin.describeGroups({ groups: groups.map((g) => g.group) }),
    admin.listConsumerGroupOffsets({ groups: groups.map((g) => ({ groupId: g.group, topics: g.topics.map((name) => ({ name, partitionIndexes: partitionsOf(name) })) })) }),
  ]);
  return groups.map(({ group, topics: groupTopics }) => {
    const offsets = committed.find((c) => c.groupId === group);
    let lag = 0;
    let position = 0;
    const partitions: GroupStatus['partitions'] = [];
    for (const b of bounds.filter((x) => groupTopics.includes(x.topic))) {
      const committedAt = offsets?.topics.find((t) => t.name === b.topic)?.partitions.find((p) => p.partitionIndex === b.partition);
      // -1: nothing committed yet, so everything in the partition is still to be read.
      const at = committedAt && committedAt.committedOffset >= 0n ? Number(committedAt.committedOffset) : b.low;
      const behind = Math.max(0, b.high - at);
      partitions.push({ topic: b.topic, partition: b.partition, lag: behind });
      lag += behind;
      position += at;
    }
    const d = described.get(group);
    return { group, state: d?.state ?? 'Dead', members: d?.members.size ?? 0, lag, position, partitions };
  });
}
