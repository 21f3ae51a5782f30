// What bench/kafka-clients' parent and its member processes (one worker and one reader a client) agree on: the
// settings every client is given alike, the messages' layout, and the IPC messages between them.

export type ClientName = 'kafkajs' | 'platformatic' | 'confluent';
export type Part = 'worker' | 'reader';

/** The same for every client: Folio's consumer settings (`consumerConfig` in @folio/event-log) and commit pace. */
export const SETTINGS = {
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 3_000,
  /** How long a fetch waits on the broker when there is nothing to read (Folio's kafkajs consumers: 250 ms). */
  maxWaitMs: 250,
  /**
   * Offsets are committed at most this often, and only offsets whose output is acknowledged (the worker) or that
   * were read (the reader): Folio's renderer commits resolved offsets every 500 ms, not after each job.
   */
  commitIntervalMs: 500,
  outValueBytes: 1024,
} as const;

export interface MemberConfig {
  client: ClientName;
  part: Part;
  brokers: string[];
  groupId: string;
  /** The worker reads `in` and writes `out`; the reader reads `out`. */
  inTopic: string;
  outTopic: string;
  /** kafkajs only: put Folio's mend of the request queue's 1 ms timer loop on (as Folio runs it). */
  mend: boolean;
  /** confluent only: the folder whose node_modules holds the built @confluentinc/kafka-javascript. */
  confluentDir?: string;
}

export interface MemberReport {
  /** Messages handled (worker: consumed and produced; reader: read). */
  messages: number;
  batches: number;
  /**
   * When its first batch began and its last one was done (ms, its clock): the worker's rate is taken from these.
   * Not from the messages' timestamps: with log-append time @platformatic/kafka still hands out the producer's (it
   * ignores the batch's timestamp type), and a reader may find the worker's whole output already written.
   */
  firstBatchAt: number | null;
  lastBatchDoneAt: number | null;
  /** Reader: messages whose sequence number was not above the last one seen for their key. */
  orderViolations: number;
  /** Reader: messages that landed on another `out` partition than their `in` partition (a partitioner mismatch). */
  partitionMismatches: number;
  /** This process's CPU (all threads) from the start of its first batch to the end of its last, in ms. */
  busyCpuMs: number | null;
}

export type ToMember = { type: 'report' } | { type: 'stop' };
export type FromMember = { type: 'ready' } | { type: 'report'; report: MemberReport } | { type: 'stopped' } | { type: 'error'; message: string };

/**
 * A message of `in`: its sequence number (u32, big-endian) first, the rest filler. The worker's message to `out`
 * carries the same sequence number and the `in` partition it came from (one byte), then filler.
 */
export function outValue(inValue: Buffer, inPartition: number): Buffer {
  const value = Buffer.allocUnsafe(SETTINGS.outValueBytes);
  inValue.copy(value, 0, 0, 4);
  value[4] = inPartition;
  value.fill(0x2e, 5);
  return value;
}

/** What a member counts; the reader also checks order per key and where each message landed. */
export class Tally {
  messages = 0;
  batches = 0;
  firstBatchAt: number | null = null;
  lastBatchDoneAt: number | null = null;
  orderViolations = 0;
  partitionMismatches = 0;
  readonly #lastSeq = new Map<string, number>();
  #firstCpu: NodeJS.CpuUsage | null = null;
  #lastCpu: NodeJS.CpuUsage | null = null;

  /** A batch begins: the first one starts this process's busy CPU. */
  batchStart(): void {
    this.#firstCpu ??= process.cpuUsage();
    this.firstBatchAt ??= Date.now();
  }

  /** A batch is done (its output acknowledged, its offsets resolved). */
  batchEnd(): void {
    this.batches++;
    this.#lastCpu = process.cpuUsage();
    this.lastBatchDoneAt = Date.now();
  }

  /** One `out` message read by the reader. */
  read(key: Buffer | null | undefined, value: Buffer | null | undefined, partition: number): void {
    this.messages++;
    if (!value || value.length < 5) return;
    const seq = value.readUInt32BE(0);
    if (value[4] !== partition) this.partitionMismatches++;
    const k = key ? key.toString('latin1') : '';
    const last = this.#lastSeq.get(k);
    if (last !== undefined && seq <= last) this.orderViolations++;
    this.#lastSeq.set(k, seq);
  }

  report(): MemberReport {
    const { messages, batches, firstBatchAt, lastBatchDoneAt, orderViolations, partitionMismatches } = this;
    const cpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
    const busyCpuMs = this.#firstCpu && this.#lastCpu ? cpu(this.#lastCpu) - cpu(this.#firstCpu) : null;
    return { messages, batches, firstBatchAt, lastBatchDoneAt, orderViolations, partitionMismatches, busyCpuMs };
  }
}

/** A running member: `stop()` leaves the group and closes every connection. */
export interface Member {
  stop(): Promise<void>;
}

/** Each client's module: a worker and a reader that call `ready()` once their group has given them partitions. */
export interface ClientModule {
  startWorker(config: MemberConfig, tally: Tally, ready: () => void): Promise<Member>;
  startReader(config: MemberConfig, tally: Tally, ready: () => void): Promise<Member>;
}
