import type { Sql } from '@folio/db';
import type { EventCodec, JobQueued, Lane } from '@folio/events';
import { consumeEvents, type EventPublisher, type KafkaClients, type RunningConsumer } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import { parkingFor } from '@folio/parked-events';
import { renderBatch } from './render-batch.ts';
import type { RenderContext } from './render-job.ts';
import type { RenderSlots } from './slots.ts';

/**
 * Jobs a lane takes up at once: a batch's starts are recorded together, and if this renderer dies they all run alone
 * when redelivered (their earlier start never finished). A few chunks' worth for every slot keeps the workers busy
 * between batches without holding more jobs than a crash should make suspect.
 */
const BATCH_JOBS = 64;

/**
 * One lane's consumer: takes JobQueued events from the lane's topic, as a member of the lane's renderer group, a
 * batch at a time (`renderBatch`): the batch's offsets are committed once every job's outcome is in the log, so a
 * stop or a crash mid-batch leaves its jobs to the next reader.
 *
 * No request can stop it (invariant 10, docs/invariants.md): one that does not decode, or whose handling fails in a way
 * retrying cannot fix, is parked and its job failed; while the broker, the registry or Postgres is away it waits on the
 * same offset (`consumeEvents`).
 */
export async function startLane(options: {
  lane: Lane;
  topic: string;
  groupId: string;
  /** The group's name without the topic prefix, as parked events record it. */
  consumerName: string;
  kafka: KafkaClients;
  codec: EventCodec;
  sql: Sql;
  publisher: EventPublisher;
  slots: RenderSlots;
  sessionTimeoutMs: number;
  render: RenderContext;
  logger: Logger;
}): Promise<RunningConsumer> {
  const { lane, slots, render, logger } = options;
  return consumeEvents({
    kafka: options.kafka,
    codec: options.codec,
    groupId: options.groupId,
    topics: [options.topic],
    sessionTimeoutMs: options.sessionTimeoutMs,
    logger,
    what: `renderer (${lane} lane)`,
    maxBatch: BATCH_JOBS,
    // A batch is taken while earlier ones convert: a slow job never holds the next request back, and a backlog's next
    // batch is started before the last one's tail is done. The slots bound what converts at once.
    inFlight: 2 * BATCH_JOBS,
    handle: async ({ events }, waiting) => {
      const queued = events.filter((e): e is typeof e & { event: JobQueued } => e.event.type === 'JobQueued');
      // Each job's trace (the request that queued it) goes on in its run.
      const traces = new Map(queued.flatMap((e) => (e.trace ? [[e.event.job_id, e.trace] as const] : [])));
      if (queued.length > 0) await renderBatch(render, queued.map((e) => e.event), lane, slots, waiting, traces);
    },
    unapplicable: parkingFor({ sql: options.sql, publisher: options.publisher, logger, worker: render.worker }, options.consumerName),
  });
}
