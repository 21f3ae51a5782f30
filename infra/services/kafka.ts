// Apache Kafka 3.9 (official jars from Maven Central), single KRaft node acting as broker and controller.
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
  /** Client (PLAINTEXT) listener on 127.0.0.1. */
  port: number;
  /** KRaft controller listener on 127.0.0.1 (never for clients). */
  controllerPort: number;
  dataDir: string;
  /** Max heap (default 512). */
  heapMb?: number;
  readyTimeoutMs?: number;
}

export type KafkaService = RunningService & { brokers: string };

/** A Kafka cluster id: 16 random bytes, base64url without padding, not starting with '-' (as Uuid.randomUuid). */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function serverProperties(o: KafkaOptions, logDir: string): string {
  return `# Written by infra/services/kafka.ts on every start; edits are overwritten.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${o.controllerPort}
listeners=PLAINTEXT://127.0.0.1:${o.port},CONTROLLER://127.0.0.1:${o.controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${o.port}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=${logDir}
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
# One broker on a small machine: a request passes from a network thread to a handler thread and back, and every
# hand-over wakes a thread (dear on a virtual machine); the defaults (3 network, 8 handler threads) are sized for
# many cores and many clients.
num.network.threads=1
num.io.threads=2
background.threads=2
`;
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
    `-Dlog4j.configuration=file:${log4jFile}`, `-Dkafka.logs.dir=${dataDir}`,
  ];

  // Format the storage once; the cluster id lives in dataDir (and in data/meta.properties).
  if (!fs.existsSync(path.join(logDir, 'meta.properties'))) {
    const idFile = path.join(dataDir, 'cluster-id');
    let clusterId = (await fsp.readFile(idFile, 'utf8').catch(() => '')).trim();
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
  });
  const brokers = `127.0.0.1:${opts.port}`;
  await ensureReady(svc, () =>
    waitUntilReady(svc, () => probeKafka(brokers), { timeoutMs: opts.readyTimeoutMs ?? 90_000, intervalMs: 300 }));
  return Object.assign(svc, { brokers });
}

/** True when an admin client can connect and read the cluster's metadata (with at least one broker and a controller). */
export async function probeKafka(brokers: string): Promise<boolean> {
  const admin = new Admin({ clientId: 'folio-infra-probe', bootstrapBrokers: brokers.split(','), connectTimeout: 1_000, requestTimeout: 3_000, retries: 0 });
  try {
    const cluster = await admin.metadata({ topics: [] });
    return cluster.brokers.size > 0 && cluster.controllerId >= 0;
  } finally {
    await admin.close().catch(() => undefined);
  }
}
