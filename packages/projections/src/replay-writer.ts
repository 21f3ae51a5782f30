import type { Sql } from '@folio/db';
import { wellFormedValue } from '@folio/events';
import { emptyJob, evolve, type JobRow } from './job.ts';
import { deliveryRow, historyRow, normalise, UPDATE_JOB, type LoggedEvent } from './store.ts';

interface Pending {
  topic: string;
  partition: number;
  logged: LoggedEvent[];
  nextOffset: number;
  done: (error?: unknown) => void;
}

/** How many job rows the writer keeps between writes; past that it forgets them all and reads them back as needed. */
const CACHED_JOBS = 200_000;

/** Rows as JSON text, for `json_populate_recordset`: one parameter, however many rows. */
const asJson = { json: (value: unknown) => value } as never;

/**
 * The replay's writer. The replay is the only writer of its tables, so the live projection's per-partition
 * transactions and row locks are not needed: batches of every partition queue here and are written together, one
 * transaction per write (group commit: while one write runs, the next gathers), the fold done in memory against job
 * rows it keeps, and each table's rows sent as one JSON parameter (`json_populate_recordset`) rather than a
 * parameter per column and row. The rows are those `applyBatch` makes (the same fold, history and delivery rows),
 * so a replay equals the live projection; the e2e test and the benchmark's verification hold it to that.
 */
export class ReplayWriter {
  private readonly queue: Pending[] = [];
  private writing = false;
  private readonly jobs = new Map<string, JobRow>();

  constructor(private readonly sql: Sql) {}

  /** Folds a partition's events (in log order) and moves its checkpoint to `nextOffset`; settles once committed. */
  write(topic: string, partition: number, logged: LoggedEvent[], nextOffset: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ topic, partition, logged, nextOffset, done: (error) => (error ? reject(error) : resolve()) });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          await this.writeTogether(batch);
          for (const p of batch) p.done();
        } catch (error) {
          // What was folded in memory may not be what is stored: forget it.
          this.jobs.clear();
          for (const p of batch) p.done(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeTogether(batch: Pending[]): Promise<void> {
    const events = batch.flatMap((p) => p.logged.map((e) => ({ ...e, event: wellFormedValue(e.event) })));
    const ids = [...new Set(events.map((e) => e.event.job_id))];
    const eventIds = events.map((e) => e.event.event_id);
    const missing = ids.filter((id) => !this.jobs.has(id));
    if (this.jobs.size + missing.length > CACHED_JOBS) this.jobs.clear();
    const [rows, seenRows] = await Promise.all([
      missing.length > 0 ? this.sql<JobRow[]>`select * from jobs where job_id = any(${ids.filter((id) => !this.jobs.has(id))}::uuid[])` : [],
      eventIds.length > 0 ? this.sql<{ event_id: string }[]>`select event_id from job_history where event_id = any(${eventIds}::uuid[])` : [],
    ]);
    for (const row of rows) this.jobs.set(row.job_id, normalise(row));
    // An event written twice (a writer retrying a send that had in fact succeeded) takes effect once, as live.
    const seen = new Set(seenRows.map((r) => r.event_id));
    const history: ReturnType<typeof historyRow>[] = [];
    const deliveries: ReturnType<typeof deliveryRow>[] = [];
    const touched = new Map<string, JobRow>();
    for (const logged of events) {
      const { event } = logged;
      if (seen.has(event.event_id)) continue;
      seen.add(event.event_id);
      const { job, effective } = evolve(this.jobs.get(event.job_id) ?? emptyJob(event.job_id), event);
      this.jobs.set(event.job_id, job);
      touched.set(event.job_id, job);
      history.push(historyRow(asJson, logged, effective));
      if (event.type === 'WebhookDeliveryAttempted') deliveries.push(deliveryRow(event));
    }
    const checkpoints = new Map<string, { topic: string; partition: number; next_offset: number }>();
    for (const p of batch) {
      const key = `${p.topic}/${p.partition}`;
      checkpoints.set(key, { topic: p.topic, partition: p.partition, next_offset: Math.max(p.nextOffset, checkpoints.get(key)?.next_offset ?? 0) });
    }
    await this.sql.begin(async (tx) => {
      await Promise.all([
        touched.size > 0 &&
          tx`insert into jobs select * from json_populate_recordset(null::jobs, ${JSON.stringify([...touched.values()])}::text::json)
             on conflict (job_id) do update set ${tx.unsafe(UPDATE_JOB)}`,
        history.length > 0 && tx`insert into job_history select * from json_populate_recordset(null::job_history, ${JSON.stringify(history)}::text::json)`,
        deliveries.length > 0 &&
          tx`insert into delivery_attempts select * from json_populate_recordset(null::delivery_attempts, ${JSON.stringify(deliveries)}::text::json)
             on conflict (event_id) do nothing`,
        tx`insert into projection_checkpoints select * from json_populate_recordset(null::projection_checkpoints, ${JSON.stringify([...checkpoints.values()])}::text::json)
           on conflict (topic, partition) do update set next_offset = greatest(projection_checkpoints.next_offset, excluded.next_offset)`,
      ]);
    });
  }
}
