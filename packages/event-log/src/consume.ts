import type { TraceHeaders } from '@folio/tracing';
import { MessagesStreamFallbackModes, MessagesStreamModes, type Consumer, type Message, type MessagesStream } from '@platformatic/kafka';
import type { EventCodec } from '@folio/events';
import type { Logger } from '@folio/logging';
import { applyRecords, endsOf, type EventBatch, type LoggedRecord, type PartitionEnd, type Unapplicable } from './apply-records.ts';
import { backoffMs, ConsumerStoppedError, describeError, type RetryContext } from './failures.ts';
import type { KafkaClients } from './kafka.ts';

type Stream = MessagesStream<Buffer, Buffer, Buffer, Buffer>;

export interface ConsumeOptions {
  kafka: KafkaClients;
  codec: EventCodec;
  /** The group's full name (with the topic prefix). */
  groupId: string;
  topics: string[];
  sessionTimeoutMs: number;
  logger: Logger;
  /** Who consumes, for logs: "projection", "renderer (sync lane)". */
  what: string;
  /** Applies a batch; resolves once its outcome is durable. Idempotent: a batch may be applied again (after a crash). */
  handle(batch: EventBatch, waiting: RetryContext): Promise<void>;
  /** Records what can never be applied, so that its partition moves on (parks it and fails its job, or reports it). */
  unapplicable(what: Unapplicable, waiting: RetryContext): Promise<void>;
  /** Records a batch holds at most (what one fetch brought, up to this). */
  maxBatch?: number;
  /**
   * Records handled at once, across batches: a batch taken while earlier ones are still being handled (the renderer's
   * jobs are independent, and one slow conversion must not hold the next request back). Unset: one batch at a time,
   * in log order (the projector's batches must apply in order).
   */
  inFlight?: number;
  /** Tries a record gets when it fails in a way retrying cannot fix. Default 3. */
  tries?: number;
  /** Where to begin instead of the group's committed offsets (a replay's ranges); nothing is committed then. */
  startAt?: Array<{ topic: string; partition: number; offset: number }>;
}

export interface RunningConsumer {
  /** Stops taking batches, lets the one in hand finish, commits, and leaves the group. */
  stop(): Promise<void>;
}

/**
 * The one consumer loop of every Folio consumer (the renderer's lanes, the projector, the replay): a member of a
 * consumer group that reads what its fetches bring, across partitions, as batches; decodes them, applies each batch
 * through its handler (`applyRecords`: transient failures retried in place, what can never apply set aside), and
 * commits a batch's offsets once its outcome is durable. Each handler is an app's own code; this is the rest.
 *
 * - Fetches run ahead of the work (the client keeps up to a thousand messages buffered), so the next batch is there
 *   when one ends; a batch is everything buffered, up to `maxBatch`. Nothing waits on a timer when work is there.
 * - Commits go out in the background, at most one a second, the latest offsets of each partition together: a
 *   batch's outcome is durable before its offsets are committed, so a crash re-reads a little and the handlers'
 *   idempotence makes that a no-op; the next batch does not wait for the broker's answer to the last commit.
 * - A rebalance: records of partitions no longer this member's are dropped (the new owner reads them from the
 *   committed offsets); records of partitions it keeps are handled whichever generation fetched them, because the
 *   client may not fetch them again (a fetch in flight across the rejoin moves its position past them), and the
 *   client's rewind to the committed offsets brings nothing twice (what was taken already is skipped). A wait on a
 *   store gives up when the batch's partitions are no longer this member's (`ConsumerStoppedError`): the batch is
 *   left to their owner, and this member reads what it owns again from the committed offsets.
 * - A stream the client gives up on (it retries a broker that is away without end, but a fetch can still fail for
 *   good) is opened again from the committed offsets, with backoff, for as long as the process lives
 *   (invariant 10, docs/invariants.md).
 */
export async function consumeEvents(options: ConsumeOptions): Promise<RunningConsumer> {
  const { logger } = options;
  const consumer = options.kafka.consumer(options.groupId, options.sessionTimeoutMs);
  const committer = options.startAt ? null : new Committer(consumer, logger, options.groupId);
  /** The next offset of each partition whose records this member has handled: a stream opened again skips them. */
  const handled = new Map<string, number>();
  /** Each partition's stretches taken and not yet all handled, in log order: offsets are committed up to the first. */
  const taken = new Map<string, Array<{ next_offset: number; done: boolean }>>();
  /**
   * Where a partition's next record to take is: past what is handled, and past what is being handled. A stretch is
   * always settled (done, or its batch given up and everything read again), so none outlives its batch, across
   * rebalances too.
   */
  const nextToTake = (key: string) => taken.get(key)?.at(-1)?.next_offset ?? handled.get(key) ?? 0;
  let inFlight = 0;
  let running = true;
  /** Set when a batch was left unhandled (given up on a rebalance, or a fault): what this member owns is read again. */
  let reopen = false;
  let failures = 0;
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const owns = (topic: string, partition: number) =>
    consumer.assignments?.some((a) => a.topic === topic && a.partitions.includes(partition)) ?? false;

  async function open(): Promise<Stream> {
    for (let failures = 1; ; failures++) {
      try {
        const stream = (await consumer.consume({
          topics: options.topics,
          ...(options.startAt
            ? { mode: MessagesStreamModes.MANUAL, offsets: options.startAt.map((s) => ({ ...s, offset: BigInt(s.offset) })) }
            : { mode: MessagesStreamModes.COMMITTED, fallbackMode: MessagesStreamFallbackModes.EARLIEST }),
        })) as Stream;
        stream.on('readable', wakeUp);
        stream.on('close', wakeUp);
        stream.on('error', (error) => {
          logger.error({ err: error, group: options.groupId }, `${options.what}: the log's stream failed; it is opened again from the committed offsets`);
          wakeUp();
        });
        return stream;
      } catch (error) {
        if (!running) throw new ConsumerStoppedError();
        const delay = backoffMs(failures, 1000, 30_000);
        logger[failures >= 3 ? 'error' : 'warn']({ err: error, group: options.groupId, delay_ms: delay }, `${options.what}: cannot read the log yet; trying again`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** What the stream has buffered, up to `most`, without the records this member must not handle. */
  function take(stream: Stream, most: number): LoggedRecord[] {
    const records: LoggedRecord[] = [];
    let message: Message<Buffer, Buffer, Buffer, Buffer> | null;
    while (records.length < most && (message = stream.read() as Message<Buffer, Buffer, Buffer, Buffer> | null) !== null) {
      const offset = Number(message.offset);
      if (!options.startAt && !owns(message.topic, message.partition)) continue;
      if (offset < nextToTake(`${message.topic}/${message.partition}`)) continue;
      const record: LoggedRecord = { topic: message.topic, partition: message.partition, offset, key: message.key?.length ? message.key.toString('utf8') : null, value: message.value ?? null };
      if (message.headers?.size) record.trace = traceOf(message.headers);
      records.push(record);
    }
    return records;
  }

  async function apply(records: LoggedRecord[]): Promise<void> {
    const partitions = [...new Set(records.map((r) => `${r.topic}/${r.partition}`))];
    // The batch's stretch of each partition, in the order taken.
    const stretches = endsOf(records).map((end) => {
      const stretch = { next_offset: end.next_offset, done: false };
      const key = `${end.topic}/${end.partition}`;
      taken.set(key, [...(taken.get(key) ?? []), stretch]);
      return { end, key, stretch };
    });
    const waiting: RetryContext = {
      active: () => running && (options.startAt !== undefined || records.every((r) => owns(r.topic, r.partition))),
      onTransient: (error, retry, delayMs) =>
        logger[retry >= 5 ? 'error' : 'warn'](
          { err: error, partitions, retry, delay_ms: delayMs },
          `${options.what} waits: a store is away (Postgres, the broker or the registry); the batch is retried in place`,
        ),
    };
    await applyRecords(records, {
      decode: (value) => options.codec.decode(value),
      handle: options.handle,
      unapplicable: options.unapplicable,
      waiting,
      tries: options.tries ?? 3,
      onSplit: (error) => logger.warn({ err: error, partitions }, `${options.what}: a batch cannot be applied whole: applying it event by event`),
    });
    // A partition moves on only as far as every stretch before is handled too (batches may end out of order).
    const reached: PartitionEnd[] = [];
    for (const { end, key, stretch } of stretches) {
      stretch.done = true;
      const queue = taken.get(key);
      if (!queue) continue; // forgotten meanwhile: the stream was opened again
      let next: number | null = null;
      while (queue.length > 0 && queue[0]!.done) next = queue.shift()!.next_offset;
      if (queue.length === 0) taken.delete(key);
      if (next === null) continue;
      handled.set(key, next);
      reached.push({ topic: end.topic, partition: end.partition, next_offset: next });
    }
    committer?.mark(reached.filter((e) => owns(e.topic, e.partition)));
  }

  /**
   * Hands a batch to `apply`; in-flight batches run beside the loop, which is woken when one ends. A batch left
   * unhandled (given up on a rebalance, or a fault of the loop's own) has its stretches stay unhandled, so no later
   * offset of its partitions is committed past it, and the loop reads what it owns again from the committed offsets.
   */
  function start(records: LoggedRecord[]): Promise<void> {
    inFlight += records.length;
    return apply(records)
      .then(() => {
        failures = 0;
      })
      .catch((error: unknown) => {
        if (error instanceof ConsumerStoppedError) {
          // Read again whatever this member owns once the group has settled: its stretches would otherwise stay
          // taken and never done, and the partitions' records never be taken again here (ownership seen mid-rebalance
          // is no guide: a member rejoining owns nothing for a moment, then the same partitions again).
          if (running) reopen = true;
          return;
        }
        // applyRecords settles every record itself; what reaches here is a fault of the loop's own (a bug): the batch
        // is read again from the committed offsets after a pause, never skipped.
        failures++;
        logger.error({ err: error }, `${options.what}: a batch failed unexpectedly; its partitions are read again`);
        reopen = true;
      })
      .finally(() => {
        inFlight -= records.length;
        wakeUp();
      });
  }

  const loop = (async () => {
    let stream: Stream | null = null;
    while (running) {
      if (reopen) {
        // Read again from the committed offsets, once the batches in hand are done with.
        reopen = false;
        while (inFlight > 0) await new Promise<void>((resolve) => (wake = resolve));
        handled.clear();
        taken.clear();
        await stream?.close().catch(() => {});
        stream = null;
        if (failures > 0) await new Promise((r) => setTimeout(r, backoffMs(failures, 1000, 30_000)));
        continue;
      }
      try {
        if (!stream || stream.destroyed) {
          if (stream) await stream.close().catch(() => {});
          stream = await open();
        }
        const room = options.inFlight === undefined ? (options.maxBatch ?? 1000) : Math.min(options.maxBatch ?? 1000, options.inFlight - inFlight);
        const records = room > 0 ? take(stream, room) : [];
        if (records.length === 0) {
          if (stream.destroyed) continue;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (options.inFlight === undefined) await start(records);
        else void start(records);
      } catch (error) {
        if (error instanceof ConsumerStoppedError) continue; // stopping while the stream was being opened
        failures++;
        logger.error({ err: error }, `${options.what}: reading the log failed unexpectedly; its partitions are read again`);
        reopen = true;
      }
    }
    while (inFlight > 0) await new Promise<void>((resolve) => (wake = resolve));
    await stream?.close().catch(() => {});
  })();

  // The first join happens in `consume`: resolve once this member is in the group and reading.
  await new Promise<void>((resolve) => {
    if (consumer.assignments !== null) return resolve();
    consumer.once('consumer:group:join', () => resolve());
    setTimeout(resolve, options.sessionTimeoutMs).unref();
  });

  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        running = false;
        wakeUp();
        await loop;
        await committer?.flush();
        await consumer.close(true).catch((error: unknown) => logger.warn({ err: error }, `${options.what}: leaving the group failed: ${describeError(error)}`));
      })();
      return stopped;
    },
  };
}

/**
 * How often a member commits at most. A batch's outcome is durable before its offsets are marked, so a commit only
 * saves re-reading after a crash (a second at most, which the handlers' idempotence makes a no-op); at low rates a
 * commit a batch would be a broker request for every job.
 */
export const COMMIT_EVERY_MS = 1000;

/**
 * Commits the latest handled offset of each partition, one commit in flight at a time and at most one a
 * `COMMIT_EVERY_MS`: a batch's offsets are marked once its outcome is durable, and go out with whatever else was
 * marked meanwhile; a timer is armed only while offsets wait. A commit the group refuses (this member is rejoining) is
 * dropped: the partitions' owner reads from the last committed offsets, and handlers are idempotent. A broker that is
 * away is retried by the client.
 */
class Committer {
  private readonly marked = new Map<string, PartitionEnd>();
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  private readonly consumer: Consumer<Buffer, Buffer, Buffer, Buffer>;
  private readonly logger: Logger;
  private readonly groupId: string;
  constructor(
    consumer: Consumer<Buffer, Buffer, Buffer, Buffer>,
    logger: Logger,
    groupId: string,
  ) {
    this.consumer = consumer;
    this.logger = logger;
    this.groupId = groupId;
  }

  mark(ends: PartitionEnd[]): void {
    for (const end of ends) {
      const key = `${end.topic}/${end.partition}`;
      if ((this.marked.get(key)?.next_offset ?? -1) < end.next_offset) this.marked.set(key, end);
    }
    this.schedule();
  }

  /** Resolves once everything marked is committed (or given up). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight) await this.inFlight;
    if (this.marked.size > 0) await (this.inFlight = this.commit());
  }

  private schedule(): void {
    if (this.inFlight || this.timer || this.marked.size === 0) return;
    const wait = this.last + COMMIT_EVERY_MS - Date.now();
    if (wait <= 0) this.inFlight = this.commit();
    else
      this.timer = setTimeout(() => {
        this.timer = null;
        this.schedule();
      }, wait);
  }

  private async commit(): Promise<void> {
    this.last = Date.now();
    const offsets = [...this.marked.values()].map((e) => ({ topic: e.topic, partition: e.partition, offset: BigInt(e.next_offset), leaderEpoch: -1 }));
    this.marked.clear();
    try {
      await this.consumer.commit({ offsets });
    } catch (error) {
      this.logger.warn({ err: error, group: this.groupId }, 'offsets not committed (the group is rebalancing, or the broker is away): their records may be read again');
    }
    this.inFlight = null;
    this.schedule();
  }
}

/** The W3C trace context among a record's headers (Folio writes no others), as text. */
function traceOf(headers: Map<Buffer, Buffer>): TraceHeaders | undefined {
  const trace: TraceHeaders = {};
  for (const [key, value] of headers) {
    const name = key.toString('latin1');
    if (name === 'traceparent' || name === 'tracestate') trace[name] = value.toString('latin1');
  }
  return Object.keys(trace).length > 0 ? trace : undefined;
}
