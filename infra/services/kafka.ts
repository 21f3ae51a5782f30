// Apache Kafka 3.9 (official jars from Maven Central): KRaft nodes acting as broker and controller — one on loopback
// for `npm start` and the tests, or three in network namespaces of their own for `npm run cluster`.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Admin } from '@platformatic/kafka';
import { javaCommand, kafkaClasspath } from './cache.ts';
import { ensureReady, spawnService, waitUntilReady, type RunningService } from './process.ts';

const execFileAsync = promisify(execFile);

export interface KafkaOptions {
  /** Client (PLAINTEXT) listener. */
  port: number;
  /** KRaft controller listener (never for clients). */
  controllerPort: number;
  dataDir: string;
  /** Start from empty data: what an earlier run stored is deleted first (a test run starts as a fresh clone does). */
  fresh?: boolean;
  /** Where both listeners are (default 127.0.0.1). */
  address?: string;
  /** The network namespace to run in (a host of `npm run cluster`). */
  netns?: string;
  /**
   * One node of a cluster: its id, every controller (`id@address:port,…`, the same on each node) and the cluster's
   * size, from which the internal topics' replication follows (3 replicas, 2 in sync, on three nodes). One cluster id
   * formats every node: pass the same one to each.
   */
  cluster?: { nodeId: number; voters: string; size: number; clusterId: string };
  /** Max heap (default 512). */
  heapMb?: number;
  readyTimeoutMs?: number;
}

export type KafkaService = RunningService & { brokers: string };

/** A Kafka cluster id: 16 random bytes, base64url without padding, not starting with '-' (as Uuid.randomUuid). */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * A lone node is the whole metadata quorum. Its controller appends a no-op record to the metadata log every 500 ms by
 * default so that the quorum's other members can tell it is alive (KIP-835); here there are none, and those appends
 * and their reading back were 40 % of an idle broker's CPU (22 → 13 ms a second, the broker alone, measured over 30 s).
 * Every 5 s keeps the liveness figure meaningful. A cluster's nodes keep the default.
 */
const LONE_QUORUM = `metadata.max.idle.interval.ms=5000
`;

export function serverProperties(o: KafkaOptions, logDir: string): string {
  const address = o.address ?? '127.0.0.1';
  const nodeId = o.cluster?.nodeId ?? 1;
  const voters = o.cluster?.voters ?? `1@${address}:${o.controllerPort}`;
  // Replicas of the broker's own topics (consumer offsets, transactions) and of topics made without a factor.
  const replicas = Math.min(3, o.cluster?.size ?? 1);
  const inSync = replicas >= 2 ? 2 : 1;
  return `# Written by infra/services/kafka.ts on every start; edits are overwritten.
process.roles=broker,controller
node.id=${nodeId}
controller.quorum.voters=${voters}
listeners=PLAINTEXT://${address}:${o.port},CONTROLLER://${address}:${o.controllerPort}
advertised.listeners=PLAINTEXT://${address}:${o.port}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=${logDir}
num.partitions=1
default.replication.factor=${replicas}
min.insync.replicas=${inSync}
offsets.topic.replication.factor=${replicas}
transaction.state.log.replication.factor=${replicas}
transaction.state.log.min.isr=${inSync}
unclean.leader.election.enable=false
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
# One broker on a small machine: a request passes from a network thread to a handler thread and back, and every
# hand-over wakes a thread (dear on a virtual machine); the defaults (3 network, 8 handler threads) are sized for
# many cores and many clients.
num.network.threads=1
num.io.threads=2
background.threads=2
${o.cluster ? '' : LONE_QUORUM}`;
}

const LOG4J = `log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.org.apache.kafka.clients=WARN
`;

export async function startKafka(opts: KafkaOptions): Promise<KafkaService> {
  const dataDir = path.resolve(opts.dataDir);
  const logDir = path.join(dataDir, 'data');
  if (opts.fresh) await fsp.rm(logDir, { recursive: true, force: true });
  await fsp.mkdir(logDir, { recursive: true });
  const propsFile = path.join(dataDir, 'server.properties');
  const log4jFile = path.join(dataDir, 'log4j.properties');
  await fsp.writeFile(propsFile, serverProperties(opts, logDir));
  await fsp.writeFile(log4jFile, LOG4J);

  const cp = kafkaClasspath();
  const heap = opts.heapMb ?? 512;
  const jvm = [
    `-Xms${Math.min(256, heap)}m`, `-Xmx${heap}m`,
    '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:InitiatingHeapOccupancyPercent=35',
    '-XX:+ExplicitGCInvokesConcurrent', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true',
    // A single broker runs on the first compiler tier only. On two cores shared with everything else, C2 was still
    // compiling the broker's code after 15,000 jobs (~24 methods a second, 10–15 % of a core: 0.4–1.1 ms of CPU a job
    // in bench/pipeline's drain), while C1's code moved the same records for the same CPU in the request threads
    // (measured A/B, docs/benchmarks.md). A cluster's brokers keep the JVM's default: in two chaos runs with C1 the
    // calls that met a killed leader waited far longer (p50 17–21 s, against 0.2 s with the default), and until
    // that is understood a failover matters more than the CPU.
    ...(opts.cluster ? [] : ['-XX:TieredStopAtLevel=1']),
    `-Dlog4j.configuration=file:${log4jFile}`, `-Dkafka.logs.dir=${dataDir}`,
  ];

  // Format the storage once; the cluster id lives in dataDir (and in data/meta.properties).
  if (!fs.existsSync(path.join(logDir, 'meta.properties'))) {
    const idFile = path.join(dataDir, 'cluster-id');
    let clusterId = opts.cluster?.clusterId ?? (await fsp.readFile(idFile, 'utf8').catch(() => '')).trim();
    if (!clusterId) {
      clusterId = newClusterId();
      await fsp.writeFile(idFile, `${clusterId}\n`);
    }
    try {
      await execFileAsync(javaCommand(), [
        '-Xmx256m', `-Dlog4j.configuration=file:${log4jFile}`, '-cp', cp,
        'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propsFile, '--ignore-formatted',
      ], { timeout: 120_000 });
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      throw new Error(`kafka: formatting ${logDir} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  }

  const svc = await spawnService({
    name: 'kafka',
    command: javaCommand(),
    args: [...jvm, '-Dfolio.service=kafka', '-cp', cp, 'kafka.Kafka', propsFile],
    dataDir,
    cmdlineMarker: propsFile,
    ports: [opts.port, opts.controllerPort],
    stopTimeoutMs: 30_000,
    ...(opts.netns ? { netns: opts.netns } : {}),
  });
  const brokers = `${opts.address ?? '127.0.0.1'}:${opts.port}`;
  // A cluster's node is ready when it serves metadata itself; the quorum needs the others, started alongside.
  await ensureReady(svc, () =>
    waitUntilReady(svc, () => probeKafka(brokers, 1, true), { timeoutMs: opts.readyTimeoutMs ?? 90_000, intervalMs: 300 }));
  return Object.assign(svc, { brokers });
}

/**
 * True when an admin client can connect and read the cluster's metadata, with at least `brokers` brokers and a
 * controller (and, with `self`, the broker asked among them: a restarted node is back, not only its peers).
 */
export async function probeKafka(brokers: string, atLeast = 1, self = false): Promise<boolean> {
  const admin = new Admin({ clientId: 'folio-infra-probe', bootstrapBrokers: brokers.split(','), connectTimeout: 1_000, requestTimeout: 3_000, retries: 0 });
  try {
    const cluster = await admin.metadata({ topics: [] });
    const listed = [...cluster.brokers.values()].map((b) => `${b.host}:${b.port}`);
    return cluster.brokers.size >= atLeast && cluster.controllerId >= 0 && (!self || listed.includes(brokers.split(',')[0]!));
  } finally {
    await admin.close().catch(() => undefined);
  }
}
