import { Admin, compatibilityPartitioner, Consumer, Producer, ProduceAcks } from '@platformatic/kafka';
import type { Logger } from '@folio/logging';

/** A delay before retry `attempt` (1-based): 250 ms doubling to 5 s. */
const retryDelay = (_client: object, _operation: string, attempt: number) => Math.min(5000, 250 * 2 ** Math.max(0, attempt - 1));

/**
 * Folio's Kafka clients (@platformatic/kafka), made with the same settings everywhere: who they are, where the brokers
 * are, and how patiently they retry. A broker that is away for a while (a restart, a leader move) should delay work,
 * not fail it: consumers retry without end (their process waits on its offset, as invariant 10 wants), a producer for
 * about half a minute (a request waiting on it is answered with the log's unavailability instead of hanging), an
 * admin briefly.
 */
export class KafkaClients {
  readonly options: { clientId: string; brokers: string[]; logger: Logger };
  constructor(options: { clientId: string; brokers: string[]; logger: Logger }) {
    this.options = options;
  }

  private base(retries: number | boolean) {
    return {
      clientId: this.options.clientId,
      bootstrapBrokers: this.options.brokers,
      connectTimeout: 3000,
      requestTimeout: 30_000,
      retries,
      retryDelay,
      // Errors refresh it at once (a leader that moved); this is only how often a quiet client looks anyway.
      metadataMaxAge: 30_000,
    };
  }

  /**
   * An idempotent producer that waits for every in-sync replica (acks=all): one request in flight a connection, so
   * a partition's events stay in the order they were sent. Keys go to partitions as Java's and kafkajs' default
   * partitioner put them (murmur2), so a job's events stay in the partition its earlier events are in.
   */
  producer(): Producer<Buffer, Buffer, Buffer, Buffer> {
    return new Producer({ ...this.base(25), idempotent: true, acks: ProduceAcks.ALL, partitioner: compatibilityPartitioner });
  }

  /**
   * A member of a consumer group. A member is given up after `sessionTimeoutMs` without a heartbeat (so a killed
   * process's partitions move on quickly); heartbeats run on a timer of their own, whatever the work in hand. A fetch
   * waits up to five seconds for data on connections of its own, so an idle member costs almost nothing and a commit
   * or a heartbeat never queues behind a waiting fetch; data that arrives is answered at once.
   */
  consumer(groupId: string, sessionTimeoutMs: number): Consumer<Buffer, Buffer, Buffer, Buffer> {
    return new Consumer({
      ...this.base(true),
      groupId,
      autocommit: false,
      sessionTimeout: sessionTimeoutMs,
      rebalanceTimeout: sessionTimeoutMs * 2,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
      maxWaitTime: 5000,
    });
  }

  admin(): Admin {
    return new Admin(this.base(3));
  }
}

export function createKafka(options: { clientId: string; brokers: string[]; logger: Logger }): KafkaClients {
  return new KafkaClients(options);
}
