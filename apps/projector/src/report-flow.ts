import type { Sql } from '@folio/db';
import { groupStatus, type GroupStatus, type KafkaClients } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { beforeScrape, logMetrics } from '@folio/metrics';
import { countParked } from '@folio/parked-events';

/** How often the flow of events is reported. */
const EVERY_MS = 30_000;
/** A scrape sooner than this after the last measurement shows that one: Kafka and Postgres are asked at most this often. */
const FRESH_FOR_MS = 5_000;

interface Flow {
  groups: GroupStatus[];
  parked: number;
}

/**
 * Reports each consumer group's lag and members and how many events are parked: every half minute in the log, at
 * info level while all is well, at error level while events wait for an operator or a group has nobody consuming;
 * and as metrics (lag per group and partition, members, parked), measured again when a scrape finds them older
 * than a few seconds. The projector reports for every group, since it already watches them all.
 */
export function reportFlow(options: { kafka: KafkaClients; sql: Sql; groups: Array<{ group: string; topics: string[] }>; logger: Logger }): { stop(): void } {
  const admin = options.kafka.admin();
  const metrics = logMetrics();
  let measuredAt = 0;
  let measuring: Promise<Flow> | null = null;

  const measure = (): Promise<Flow> =>
    (measuring ??= (async () => {
      try {
        const [groups, parked] = await Promise.all([groupStatus(admin, options.groups), countParked(options.sql)]);
        metrics.parked.set(parked);
        metrics.lag.reset();
        for (const g of groups) {
          metrics.members.set({ group: g.group }, g.members);
          for (const p of g.partitions) metrics.lag.set({ group: g.group, topic: p.topic, partition: String(p.partition) }, p.lag);
        }
        measuredAt = Date.now();
        return { groups, parked };
      } finally {
        measuring = null;
      }
    })());

  const tick = async () => {
    try {
      const { groups, parked } = await measure();
      const lag = Object.fromEntries(groups.map((g) => [g.group, { lag: g.lag, members: g.members, state: g.state }]));
      const unwell = parked > 0 || groups.some((g) => g.members === 0);
      options.logger[unwell ? 'error' : 'info']({ lag, parked }, parked > 0 ? `${parked} parked event(s) wait for an operator (folio parked list)` : 'event flow');
    } catch (error) {
      options.logger.warn({ err: error }, 'event flow could not be measured');
    }
  };
  const timer = setInterval(() => void tick(), EVERY_MS);
  timer.unref();
  const stopScrapes = beforeScrape(async () => {
    if (Date.now() - measuredAt < FRESH_FOR_MS) return;
    try {
      await measure();
    } catch (error) {
      options.logger.warn({ err: error }, 'event flow could not be measured for metrics');
    }
  });
  return {
    stop() {
      clearInterval(timer);
      stopScrapes();
      void admin.close().catch(() => {});
    },
  };
}
