import type { Sql } from '@folio/db';
import { wellFormedValue } from '@folio/events';
import { foldEvents, type FoldedBatch, type LoggedEvent } from './fold.ts';
import type { JobRow } from './job.ts';
import { addDeferredKeys } from './replay-tables.ts';
import { insertDeliveries, insertHistory, normalise, saveCheckpoints, saveJobRows, type Checkpoint } from './rows.ts';

interface Pending {
  topic: string;
  partition: number;
  logged: LoggedEvent[];
  nextOffset: number;
  done: (error?: unknown) => void;
}

/** How many job rows the writer keeps between writes; past that it writes those it holds back and forgets them all. */
const CACHED_JOBS = 200_000;
/** How many event ids it remembers to drop a duplicate; past that it asks the table (and gives it its key first). */
const REMEMBERED_EVENTS = 2_000_000;
/** Job rows a statement carries at most. */
const JOB_ROWS_A_STATEMENT = 20_000;
/**
 * Writes in flight at once while the first fold only appends: Postgres parsing the rows is what a replay waits on,
 * and a second connection puts a second core to it (1.4× on two cores, measured).
 */
const PARALLEL_APPENDS = 2;

/** What one write puts in the tables, folded from a group of batches. */
type Folded = Pick<FoldedBatch, 'touched' | 'fresh' | 'history' | 'deliveries'> & { checkpoints: Checkpoint[] };

/**
 * The replay's writer. The replay is the only writer of its tables, so the live projection's per-partition
 * transactions and row locks are not needed: batches of every partition queue here and are written together, one
 * transaction per write (group commit: while one write runs, the next gathers), and each table's rows go as one
 * JSON parameter (`json_populate_recordset`) rather than a parameter per column and row. The fold runs in memory
 * against the job rows the writer keeps, and what it knows it does not ask the database: a job it never saw does not
 * exist (the tables started empty), an event id it never saw was not written. The fold and the statements are the
 * live projection's (`foldEvents`, `rows.ts`), so a replay equals the live projection; the e2e test and the
 * benchmark's verification hold it to that.
 *
 * `fromEmpty` (the first fold, up to the end offsets): nobody reads the tables meanwhile, so job rows are held back
 * and written once, by `flush()`, instead of at every event of the job; `job_history` and `delivery_attempts` get
 * their primary keys afterwards (`finishReplayTables`), as nothing here needs them. Otherwise (following the log for
 * a swap) every write carries its job rows, so the checkpoints always match the rows.
 */
export class ReplayWriter {
  private readonly queue: Pending[] = [];
  private writing = false;
  private readonly jobs = new Map<string, JobRow>();
  private readonly held = new Set<string>();
  /** Whether `jobs` holds every job in the tables (they started empty and nothing was forgotten since). */
  private allJobs: boolean;
  /** Every event id in the tables, while they started empty and there are not too many. */
  private eventIds: Set<string> | null;
  private readonly holdJobs: boolean;
  private readonly live: string;
  /** Appending writes under way (the first fold's), and who waits for one to end. */
  private appending = 0;
  private readonly appendEnded = new Set<() => void>();
  /** The first failed append: the tables no longer match what the writer folded, so every later write fails too. */
  private broken: unknown = null;

  private readonly sql: Sql;
  constructor(
    sql: Sql,
    { fromEmpty, live }: { fromEmpty: boolean; live: string },
  ) {
    this.sql = sql;
    this.live = live;
    this.allJobs = fromEmpty;
    this.eventIds = fromEmpty ? new Set() : null;
    this.holdJobs = fromEmpty;
  }

  /** Folds a partition's events (in log order) and moves its checkpoint to `nextOffset`; settles once committed. */
  write(topic: string, partition: number, logged: LoggedEvent[], nextOffset: number): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ topic, partition, logged, nextOffset, done: (error) => (error ? reject(error) : resolve()) });
      void this.drain();
    });
  }

  /** Writes the job rows held back. */
  async flush(): Promise<void> {
    while (this.writing) await new Promise((r) => setTimeout(r, 10));
    await this.appendsEnded(0);
    if (this.broken) throw this.broken;
    const rows = [...this.held].map((id) => this.jobs.get(id)!);
    for (let i = 0; i < rows.length; i += JOB_ROWS_A_STATEMENT) await saveJobRows(this.sql, rows.slice(i, i + JOB_ROWS_A_STATEMENT));
    this.held.clear();
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        if (this.broken) {
          for (const p of batch) p.done(this.broken);
        } else if (this.appendOnly(batch)) {
          await this.appendsEnded(PARALLEL_APPENDS - 1);
          this.append(batch);
        } else {
          await this.appendsEnded(0);
          try {
            await this.writeTogether(batch);
            for (const p of batch) p.done();
          } catch (error) {
            for (const p of batch) p.done(error);
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeTogether(batch: Pending[]): Promise<void> {
    const events = eventsOf(batch);
    const ids = [...new Set(events.map((e) => e.event.job_id))];
    if (this.jobs.size + ids.length > CACHED_JOBS) {
      await this.flush();
      this.jobs.clear();
      this.allJobs = false;
    }
    if (this.eventIds && this.eventIds.size + events.length > REMEMBERED_EVENTS) {
      await addDeferredKeys(this.sql, this.live, 'job_history');
      this.eventIds = null;
    }
    const missing = this.allJobs ? [] : ids.filter((id) => !this.jobs.has(id));
    const eventIds = events.map((e) => e.event.event_id);
    const [rows, seenRows] = await Promise.all([
      missing.length > 0 ? this.sql<JobRow[]>`select * from jobs where job_id = any(${missing}::uuid[])` : [],
      !this.eventIds && eventIds.length > 0 ? this.sql<{ event_id: string }[]>`select event_id from job_history where event_id = any(${eventIds}::uuid[])` : [],
    ]);
    for (const row of rows) this.jobs.set(row.job_id, normalise(row));
    const folded = this.fold(batch, events, new Set(seenRows.map((r) => r.event_id)));
    await this.writeRows(folded, !this.holdJobs);
    this.remember(folded);
  }

  /**
   * Whether a group of batches can be written beside others: during the first fold, while every job and event id is
   * in memory (the batch needs nothing from the tables) and job rows are held back, a write only appends history and
   * delivery rows and raises checkpoints, which commute with any other such write.
   */
  private appendOnly(batch: Pending[]): boolean {
    if (!this.holdJobs || !this.allJobs || !this.eventIds) return false;
    const events = batch.reduce((n, p) => n + p.logged.length, 0);
    return this.jobs.size + events <= CACHED_JOBS && this.eventIds.size + events <= REMEMBERED_EVENTS;
  }

  /**
   * Folds a group at once, takes it as written, and writes it in the background. Should the write fail, the writer
   * is broken for good (what it folded is no longer what the tables hold), so the replay fails rather than finish
   * with rows missing; a replay is started again from empty tables.
   */
  private append(batch: Pending[]): void {
    const events = eventsOf(batch);
    const folded = this.fold(batch, events, new Set());
    this.remember(folded);
    this.appending++;
    this.writeRows(folded, false).then(
      () => batch.forEach((p) => p.done()),
      (error: unknown) => {
        this.broken ??= error;
        batch.forEach((p) => p.done(error));
      },
    ).finally(() => {
      this.appending--;
      for (const ended of this.appendEnded) ended();
    });
  }

  /** Resolves once no more than `most` appends are under way. */
  private async appendsEnded(most: number): Promise<void> {
    while (this.appending > most) {
      await new Promise<void>((resolve) => {
        const ended = () => {
          this.appendEnded.delete(ended);
          resolve();
        };
        this.appendEnded.add(ended);
      });
    }
  }

  /** The rows of a group, folded on the side: the writer's own state changes only in `remember`. */
  private fold(batch: Pending[], events: LoggedEvent[], seen: Set<string>): Folded {
    const { touched, fresh, history, deliveries } = foldEvents(
      events,
      (id) => this.jobs.get(id),
      (id) => seen.has(id) || (this.eventIds?.has(id) ?? false),
    );
    const checkpoints = new Map<string, Checkpoint>();
    for (const p of batch) {
      const key = `${p.topic}/${p.partition}`;
      checkpoints.set(key, { topic: p.topic, partition: p.partition, next_offset: Math.max(p.nextOffset, checkpoints.get(key)?.next_offset ?? 0) });
    }
    return { touched, fresh, history, deliveries, checkpoints: [...checkpoints.values()] };
  }

  /** Writes a group's rows and checkpoints in one transaction (its job rows too, unless they are held back). */
  private async writeRows({ touched, history, deliveries, checkpoints }: Folded, withJobs: boolean): Promise<void> {
    await this.sql.begin(async (tx) => {
      // The replay's tables are unlogged (emptied by a crash anyway) and a failed replay starts again from empty
      // tables: a commit need not wait for its WAL record to reach the disk.
      await tx`set local synchronous_commit = off`;
      await Promise.all([
        withJobs && touched.size > 0 && saveJobRows(tx, [...touched.values()]),
        history.length > 0 && insertHistory(tx, history),
        deliveries.length > 0 && insertDeliveries(tx, deliveries, { keyed: false }),
        saveCheckpoints(tx, checkpoints),
      ]);
    });
  }

  /** Takes a group's fold as the writer's state (once written, or at once for an append). */
  private remember({ touched, fresh }: Folded): void {
    for (const [id, job] of touched) {
      this.jobs.set(id, job);
      if (this.holdJobs) this.held.add(id);
    }
    for (const id of fresh) this.eventIds?.add(id);
  }
}

/** A group's events in order, their text made well-formed (as the live projection stores it). */
function eventsOf(batch: Pending[]): LoggedEvent[] {
  return batch.flatMap((p) => p.logged.map((e) => ({ ...e, event: wellFormedValue(e.event) })));
}
