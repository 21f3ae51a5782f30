/**
 * How many copies of the log Folio keeps, and how many must have an event before the broker acknowledges it. The
 * producer waits for every in-sync replica (acks=all), and `min.insync.replicas` is how few of them may be left
 * before the broker refuses writes instead: at 1, a write held by a single broker is acknowledged, and losing that
 * broker loses a job the caller was told is queued. Pure.
 */
export interface Durability {
  /** Replicas of each partition (the topic's replication factor). */
  replication: number;
  /** The topic's `min.insync.replicas`. */
  minInsync: number;
}

export interface DurabilityWanted {
  /** FOLIO_TOPIC_REPLICATION; null: as many as the cluster has brokers, at most 3. */
  replication: number | null;
  /** FOLIO_TOPIC_MIN_INSYNC; null: 2 where there are two replicas or more, else 1. */
  minInsync: number | null;
  /** FOLIO_ALLOW_UNSAFE_TOPICS: start although one lost broker could lose an acknowledged event. */
  allowUnsafe: boolean;
}

/** The log's settings cannot be what was asked, or would lose acknowledged events with a broker: Folio does not start. */
export class TopicSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopicSettingsError';
  }
}

/**
 * The settings for Folio's topics on a cluster of `brokers`: 3 replicas with min.insync 2 on three brokers or more
 * (a broker may be lost, or restarted, without losing an event or stopping writes), 2 and 2 on two (safe, but writes
 * stop while one is away), 1 and 1 on a single broker (the log is that broker: there is no other to lose). On a
 * cluster, settings where an acknowledged event could sit on one broker only are refused unless `allowUnsafe`.
 */
export function topicDurability(brokers: number, wanted: DurabilityWanted): Durability {
  const replication = wanted.replication ?? Math.min(3, Math.max(1, brokers));
  if (replication > brokers) {
    throw new TopicSettingsError(`FOLIO_TOPIC_REPLICATION is ${replication}, but the cluster has ${brokers} broker(s): each replica needs a broker of its own`);
  }
  const minInsync = wanted.minInsync ?? (replication >= 2 ? 2 : 1);
  if (minInsync > replication) {
    throw new TopicSettingsError(`FOLIO_TOPIC_MIN_INSYNC is ${minInsync}, above the ${replication} replica(s) of each partition: the broker would refuse every write`);
  }
  if (brokers >= 2 && minInsync < 2 && !wanted.allowUnsafe) {
    throw new TopicSettingsError(
      `on a cluster of ${brokers} brokers, min.insync.replicas ${minInsync} (replication ${replication}) lets a broker acknowledge an event ` +
        'no other broker holds, and losing it loses the job: use FOLIO_TOPIC_REPLICATION=3 with FOLIO_TOPIC_MIN_INSYNC=2, ' +
        'or set FOLIO_ALLOW_UNSAFE_TOPICS=true to start anyway',
    );
  }
  return { replication, minInsync };
}

/**
 * What is wrong with a topic that exists already with `replicas` replicas (its replication cannot be changed by a
 * setting: its partitions must be reassigned), or null. Fewer replicas than min.insync would refuse every write.
 */
export function existingTopicProblem(topic: string, replicas: number, wanted: Durability): string | null {
  if (replicas >= wanted.minInsync) return null;
  return (
    `topic ${topic} has ${replicas} replica(s) a partition, fewer than min.insync.replicas ${wanted.minInsync}: every write would be refused. ` +
    'Reassign its partitions to more brokers (kafka-reassign-partitions), or set FOLIO_TOPIC_MIN_INSYNC to what it has'
  );
}
