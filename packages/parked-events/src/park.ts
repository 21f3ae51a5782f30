import { isJobId, jobFailed, type JobError } from '@folio/events';
import { describeError, retryTransient, type EventPublisher, type RetryContext, type Unapplicable } from '@folio/event-log';
import type { Logger } from '@folio/logging';
import type postgres from 'postgres';
import { parkEvent, type Parking } from './store.ts';

export interface ParkContext {
  sql: postgres.Sql;
  /** null: record the event only (a replay; the job was failed when the event was first parked). */
  publisher: EventPublisher | null;
  logger: Logger;
  /** Who writes the job's JobFailed (`projector`, `renderer`), as the event's worker. */
  worker: string;
  waiting: RetryContext;
}

/**
 * Parks an event that can never be applied and ends its job: the record goes to the dead-letter store first, then a
 * JobFailed(render_failed) for the job the event names, so that nobody waits for it forever. Both steps wait out
 * transient failures, and both are idempotent, so a crash between them only repeats them; the caller moves its
 * partition on afterwards. A parked JobFailed gets no JobFailed of its own: it is the job's end already, and another
 * would likely be refused the same way.
 */
export async function parkAndFailJob(ctx: ParkContext, parking: Omit<Parking, 'error'> & { error: unknown }): Promise<number> {
  const reason = describeError(parking.error);
  const id = await retryTransient(() => parkEvent(ctx.sql, { ...parking, error: reason }), ctx.waiting);
  ctx.logger.error(
    { parked_id: id, topic: parking.topic, partition: parking.partition, offset: parking.offset, job_id: parking.jobId, event_type: parking.eventType, tries: parking.tries, err: parking.error },
    'event parked: it could not be applied; its partition moves on (folio parked list)',
  );
  const publisher = ctx.publisher;
  if (publisher && isJobId(parking.jobId) && parking.eventType !== 'JobFailed') {
    const error: JobError = {
      code: 'render_failed',
      message: `the service could not process an event of this job (${parking.eventType ?? 'unreadable event'}) and set it aside for an operator (parked event ${id}); sending the request again is safe`,
      retryable: true,
    };
    try {
      await retryTransient(() => publisher.publish(jobFailed(parking.jobId!, null, ctx.worker, error)), ctx.waiting);
    } catch (failure) {
      if ((failure as Error).name === 'ConsumerStoppedError') throw failure;
      ctx.logger.error({ err: failure, parked_id: id, job_id: parking.jobId }, 'the parked event’s job could not be failed');
    }
  }
  return id;
}

/**
 * What a consumer does with a record it can never apply (`consumeEvents`' `unapplicable`): parks it under the
 * consumer's name (the group's name without the topic prefix) and fails the job it names.
 */
export function parkingFor(ctx: Omit<ParkContext, 'waiting'>, consumer: string): (what: Unapplicable, waiting: RetryContext) => Promise<void> {
  return async (what, waiting) => {
    await parkAndFailJob(
      { ...ctx, waiting },
      {
        consumer,
        topic: what.topic,
        partition: what.partition,
        offset: what.offset,
        jobId: what.event?.job_id ?? what.key,
        eventType: what.event?.type ?? null,
        error: what.error,
        tries: what.tries,
      },
    );
  };
}
