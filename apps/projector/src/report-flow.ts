import type { Sql } from '@folio/db';
import { groupStatus, type KafkaClients } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { countParked } from '@folio/parked-events';

/** How often the flow of events is reported. */
const EVERY_MS = 30_000;

/**
 * Reports, every half minute, each consumer group's lag and members and how many events are parked: at info level
 * while all is well, at error level while events wait for an operator or a group has nobody consuming.
 */
export function reportFlow(options: { kafka: KafkaClients; sql: Sql; groups: Array<{ group: string; topics: string[] }>; logger: Logger }): { stop(): void } {
  const admin = options.kafka.admin();
  const tick = async () => {
    try {
      const [groups, parked] = await Promise.all([groupStatus(admin, options.groups), countParked(options.sql)]);
      const lag = Object.fromEntries(groups.map((g) => [g.group, { lag: g.lag, members: g.members, state: g.state }]));
      const unwell = parked > 0 || groups.some((g) => g.members === 0);
      options.logger[unwell ? 'error' : 'info']({ lag, parked }, parked > 0 ? `${parked} parked event(s) wait for an operator (folio parked list)` : 'event flow');
    } catch (error) {
      options.logger.warn({ err: error }, 'event flow could not be measured');
    }
  };
  const timer = setInterval(() => void tick(), EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      void admin.close().catch(() => {});
    },
  };
}
