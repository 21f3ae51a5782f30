import type { Sql } from '@folio/db';
import { allTopics, type EventCodec, type Topics } from '@folio/events';
import { consumeEvents, type EventPublisher, type KafkaClients, type LoggedEvent, type RunningConsumer } from '@folio/event-log';
import { parkingFor } from '@folio/parked-events';
import type { Logger } from '@folio/logging';
import { observeEndedJobs } from '@folio/metrics';
import { contextOf, endSpan, SpanKind, startSpan, traceHeaders, tracing, type TraceHeaders } from '@folio/tracing';
import { applyEvents } from './store.ts';

export interface ProjectionOptions {
  kafka: KafkaClients;
  sql: Sql;
  codec: EventCodec;
  topics: Topics;
  groupId: string;
  logger: Logger;
  /** Writes the JobFailed of a job whose event had to be parked. */
  publisher: EventPublisher;
  /** The group's name without the topic prefix, as parked events record it. */
  consumerName?: string;
  sessionTimeoutMs?: number;
}

/**
 * Folds every job event into the read models, as a member of the projector's consumer group on every job topic. What
 * a fetch brings, across partitions, is applied in one Postgres transaction together with the checkpoint of every
 * partition it covers (`applyEvents`); the Kafka offsets are committed only after that, so Kafka's committed position
 * never runs ahead of Postgres: a crash anywhere replays a little of the log, and the checkpoints turn the replay
 * into a no-op.
 *
 * No event can stop it (invariant 10, docs/invariants.md): the consumer loop (`consumeEvents`) retries a batch in
 * place while Postgres, the registry or the broker is away, and when a batch cannot be applied whole it is applied
 * event by event so that only the event at fault is parked (its job failed) and every other one is applied.
 */
export async function startProjection(options: ProjectionOptions): Promise<RunningConsumer> {
  const { sql, logger } = options;
  const consumerName = options.consumerName ?? options.groupId;
  return consumeEvents({
    kafka: options.kafka,
    codec: options.codec,
    groupId: options.groupId,
    topics: allTopics(options.topics),
    sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
    logger,
    what: 'projection',
    maxBatch: 2000,
    handle: async ({ events, ends }) => {
      const steps = projectionSpans(events);
      try {
        const applied = await applyEvents(sql, events, ends, { onEnded: observeEndedJobs, traces: steps.traces });
        if (applied > 0) logger.debug({ applied }, 'projected');
        steps.end();
      } catch (error) {
        steps.end(error);
        throw error;
      }
    },
    unapplicable: parkingFor({ sql, publisher: options.publisher, logger, worker: 'projector' }, consumerName),
  });
}

/**
 * A span for each traced event of a batch, under the step that wrote it (the request, the render), ending when the
 * batch's transaction does; and, by job, the context of its last one, which a callback owed in that transaction
 * continues. Nothing when traces are not exported.
 */
function projectionSpans(events: LoggedEvent[]): { traces: Map<string, TraceHeaders>; end(error?: unknown): void } {
  const traces = new Map<string, TraceHeaders>();
  if (!tracing()) return { traces, end: () => {} };
  const spans = events
    .filter((e) => e.trace)
    .map(({ event, trace }) => {
      const step = startSpan(`project ${event.type}`, { parent: contextOf(trace), kind: SpanKind.CONSUMER, attributes: { 'folio.job_id': event.job_id, 'folio.event_id': event.event_id } });
      traces.set(event.job_id, traceHeaders(step.context));
      return step.span;
    });
  return {
    traces,
    end: (error?: unknown) => {
      for (const span of spans) endSpan(span, error);
    },
  };
}
