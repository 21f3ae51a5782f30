import type { Sql } from '@folio/db';
import { readMessageAt, type KafkaClients } from '@folio/event-log';
import type { EventCodec } from '@folio/events';
import { reapplyEvent } from '@folio/projections';
import { scheduleCallbacks, type OwedCallback } from '@folio/webhooks';
import { findParked, listParked, markResolved, markStillParked, type ParkedEvent } from '@folio/parked-events';

/** `folio parked list`: one line per parked event, oldest first. */
export function formatParked(rows: ParkedEvent[]): string {
  if (rows.length === 0) return 'no parked events\n';
  const lines = rows.map((r) =>
    [
      `#${r.id}`,
      r.resolved_at ? `resolved ${r.resolved_at}` : `parked ${r.parked_at}`,
      `${r.consumer}`,
      `${r.topic}/${r.partition}@${r.offset}`,
      r.event_type ?? 'undecodable',
      r.job_id ? `job ${r.job_id}` : 'no job',
      `after ${r.tries} tries: ${r.error.replace(/\s+/g, ' ')}`,
    ].join('  '),
  );
  return `${lines.join('\n')}\n`;
}

const REAPPLIED = {
  applied: 'applied in its place in the log',
  recorded: 'recorded in the history; the job keeps the end it had',
  seen: 'had been applied already',
} as const;

export interface RetryOutcome {
  id: number;
  applied: boolean;
  detail: string;
}

/**
 * Re-applies parked events after their fault was mended: each is read again from its place in the log (the log
 * still holds it) and handed to the consumer's own code. For the projector that folds the job again with the event
 * in its place (`reapplyEvent`), so the read models match what a rebuild gives (with what the live projection does
 * beside them: the meter, callbacks owed). A renderer's parked request had its job failed when it was parked, and a
 * job's end never changes, so for it the retry checks that the request now decodes and closes the record. For a
 * dispatcher's (from releases where it read the log), a terminal event that now decodes owes its job's callback.
 */
export async function retryParked(deps: { sql: Sql; kafka: KafkaClients; codec: EventCodec }, which: number | 'all'): Promise<RetryOutcome[]> {
  const rows = which === 'all' ? await listParked(deps.sql) : [await findParked(deps.sql, which)].filter((r) => r !== null);
  if (which !== 'all' && rows.length === 0) throw new Error(`no parked event #${which}`);
  const outcomes: RetryOutcome[] = [];
  for (const row of rows) {
    if (row.resolved_at) {
      outcomes.push({ id: row.id, applied: true, detail: 'resolved already' });
      continue;
    }
    try {
      const message = await readMessageAt(deps.kafka, row.topic, row.partition, row.offset);
      if (!message.value) throw new Error('the message at that position has no value');
      const event = await deps.codec.decode(message.value);
      let detail = `${event.type} of job ${event.job_id} decodes; the job was failed when it was parked`;
      if (row.consumer === 'folio-projector') {
        const how = await reapplyEvent(deps.sql, { topic: row.topic, partition: row.partition, offset: row.offset, event });
        detail = `${event.type} of job ${event.job_id} ${REAPPLIED[how]}`;
      } else if (row.consumer === 'folio-dispatcher') {
        // Parked by a dispatcher of a release that scheduled callbacks itself (the projector does now): a terminal
        // event that now decodes owes its job's callback, if the job has one; scheduling is idempotent.
        const terminal = event.type === 'JobSucceeded' || event.type === 'JobFailed';
        const jobs = terminal ? await deps.sql<OwedCallback[]>`
          select job_id, key_id, webhook_url, finished_at, expires_at from jobs
          where job_id = ${event.job_id} and status in ('succeeded', 'failed')` : [];
        await scheduleCallbacks(deps.sql, jobs);
        detail = `${event.type} of job ${event.job_id} decodes; ${jobs.some((j) => j.webhook_url) ? 'its callback is owed (once)' : 'no callback was owed'}`;
      }
      await markResolved(deps.sql, row.id);
      outcomes.push({ id: row.id, applied: true, detail });
    } catch (error) {
      const detail = `${(error as Error).name}: ${(error as Error).message}`;
      await markStillParked(deps.sql, row.id, detail);
      outcomes.push({ id: row.id, applied: false, detail });
    }
  }
  return outcomes;
}
