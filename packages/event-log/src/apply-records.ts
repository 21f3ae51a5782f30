import type { TraceHeaders } from '@folio/tracing';
import type { JobEvent } from '@folio/events';
import { ConsumerStoppedError, retryTransient, settle, type RetryContext } from './failures.ts';

/** A message as read from the log. */
export interface LoggedRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: Buffer | null;
  /** The W3C trace context its writer put in its headers (none when tracing is off). */
  trace?: TraceHeaders;
}

/** One event with where it sits in the log. */
export interface LoggedEvent {
  topic: string;
  partition: number;
  offset: number;
  event: JobEvent;
  /** The W3C trace context of the step that wrote it, from the record's headers (none when tracing is off). */
  trace?: TraceHeaders;
}

/** How far a batch reaches in one partition: everything before `next_offset` is in it. */
export interface PartitionEnd {
  topic: string;
  partition: number;
  next_offset: number;
}

/** A batch as a handler sees it: the events, in log order within each partition, and how far it reaches in each. */
export interface EventBatch {
  events: LoggedEvent[];
  /** Every partition the batch covers, also those whose records were all set aside (a checkpoint still moves). */
  ends: PartitionEnd[];
}

/** A record that can never be applied: it does not decode, or applying its event fails however often it is tried. */
export interface Unapplicable {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  /** The event, when the record decoded. */
  event: JobEvent | null;
  error: unknown;
  tries: number;
}

export interface RecordsContext {
  decode(value: Buffer): Promise<JobEvent>;
  /** Applies a batch; resolves once its outcome is durable. Must be idempotent: a batch may be applied again. */
  handle(batch: EventBatch, waiting: RetryContext): Promise<void>;
  /** Records what can never be applied (parks it, fails its job); the partition then moves on past it. */
  unapplicable(what: Unapplicable, waiting: RetryContext): Promise<void>;
  waiting: RetryContext;
  /** Tries a record gets when it fails in a way retrying cannot fix, before it is set aside. */
  tries: number;
  onSplit?(error: unknown): void;
}

/**
 * Applies what one fetch brought, so that no record can stop the consumer (invariant 10, docs/invariants.md): the
 * records are decoded (a record that will not decode is set aside), then the batch is applied whole, in one go. A
 * transient failure (a store or the broker away) is retried in place, with backoff, for as long as it lasts; nothing
 * is skipped. A failure retrying cannot fix is looked for event by event, in log order, so that only the event at
 * fault is set aside after its tries and every other one is applied. Returns how far the batch reached in each
 * partition: the offsets to commit once this resolves.
 */
export async function applyRecords(records: LoggedRecord[], ctx: RecordsContext): Promise<PartitionEnd[]> {
  const { waiting } = ctx;
  const ends = endsOf(records);
  const events: LoggedEvent[] = [];
  for (const record of records) {
    if (!record.value) continue;
    const value = record.value;
    const decoded = await settle(() => ctx.decode(value), { ...waiting, tries: ctx.tries });
    if (decoded.ok) events.push({ topic: record.topic, partition: record.partition, offset: record.offset, event: decoded.value, ...(record.trace ? { trace: record.trace } : {}) });
    else await ctx.unapplicable({ ...record, event: null, error: decoded.error, tries: decoded.tries }, waiting);
  }
  try {
    await retryTransient(() => ctx.handle({ events, ends }, waiting), waiting);
    return ends;
  } catch (error) {
    if (error instanceof ConsumerStoppedError) throw error;
    ctx.onSplit?.(error);
  }
  for (const logged of events) {
    const one = { events: [logged], ends: [{ topic: logged.topic, partition: logged.partition, next_offset: logged.offset + 1 }] };
    const outcome = await settle(() => ctx.handle(one, waiting), { ...waiting, tries: ctx.tries });
    if (!outcome.ok) {
      const record = records.find((r) => r.topic === logged.topic && r.partition === logged.partition && r.offset === logged.offset);
      await ctx.unapplicable({ ...logged, key: record?.key ?? logged.event.job_id, error: outcome.error, tries: outcome.tries }, waiting);
    }
  }
  // The batch's ends, for a handler that keeps checkpoints: past everything set aside too.
  await retryTransient(() => ctx.handle({ events: [], ends }, waiting), waiting);
  return ends;
}

/** The next offset in each partition the records reach. */
export function endsOf(records: LoggedRecord[]): PartitionEnd[] {
  const ends = new Map<string, PartitionEnd>();
  for (const r of records) {
    const key = `${r.topic}/${r.partition}`;
    const end = ends.get(key);
    if (!end) ends.set(key, { topic: r.topic, partition: r.partition, next_offset: r.offset + 1 });
    else end.next_offset = Math.max(end.next_offset, r.offset + 1);
  }
  return [...ends.values()];
}
