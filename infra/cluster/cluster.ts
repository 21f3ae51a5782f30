// Folio as a cluster on one machine: every host of topology.ts is a network namespace, and each runs what a real
// deployment would put on its own machine — three Kafka nodes (KRaft, each broker and controller), Postgres, the
// schema registry, S3Proxy, HAProxy in front of the API processes, the renderers, the projector and the dispatcher.
// The apps are kept running as `npm start` keeps them (a killed one is started again, as an orchestrator would).
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateDatabase } from '@folio/db';
import {
  createDatabase,
  startKafka,
  startPostgres,
  startRegistry,
  startS3,
  withDatabase,
  type KafkaService,
  type PostgresService,
  type RunningService,
} from '../services/index.ts';
import { newClusterId, probeKafka } from '../services/kafka.ts';
import { localS3 } from '../local.ts';
import { superviseApp, type SupervisedApp } from '../supervised-app.ts';
import { startBalancer } from './balancer.ts';
import { createNetwork, cutOff, reconnect, removeNetwork } from './network.ts';
import {
  balancerUrl,
  bootstrapBrokers,
  byRole,
  only,
  PORTS,
  receiverUrl,
  topology,
  voters,
  type Host,
  type TopologyOptions,
} from './topology.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ClusterOptions extends TopologyOptions {
  /** Everything of this cluster lives here (wiped at start: a cluster starts empty). */
  stateDir: string;
  /** Progress lines. */
  say(line: string): void;
  /** Extra environment for every app (e.g. a renderer's concurrency). */
  appEnv?: Record<string, string>;
  /** An app crashed too often: the cluster should stop. */
  giveUp(): void;
  /** The least pino level of the apps' lines shown (default 40: warnings; their logs have everything). */
  minLevel?: number;
}

type AppName = 'api' | 'renderer' | 'projector' | 'dispatcher';

export interface Cluster {
  hosts: Host[];
  /** The balancer: where callers go. */
  url: string;
  /** Where a receiver of callbacks listens (its own host; Folio may deliver there). */
  receiverUrl: string;
  /** DATABASE_URL, KAFKA_BROKERS, SCHEMA_REGISTRY_URL and the key secret's file, as the apps have them. */
  env: Record<string, string>;
  host(name: string): Host;
  /** kill -9 of an app's process (its supervisor starts it again). */
  killApp(hostName: string): void;
  /** Stops an app for good (it finishes its in-flight work), as scaling in does; `startApp` brings it back. */
  stopApp(hostName: string): Promise<void>;
  startApp(hostName: string): void;
  /** Hosts whose app is running (started and not stopped). */
  running(role: Host['role']): Host[];
  /** kill -9 of a broker; `startBroker` brings it back with its data. */
  killBroker(hostName: string): Promise<void>;
  startBroker(hostName: string): Promise<void>;
  /** A graceful Postgres restart (fast shutdown, then start on the same data). */
  restartPostgres(): Promise<void>;
  cutOff(hostName: string): void;
  reconnect(hostName: string): void;
  /** Stops everything, apps first, and removes the namespaces. Idempotent. */
  stop(): Promise<void>;
}

const APP_ROLES: Record<AppName, Host['role']> = { api: 'api', renderer: 'renderer', projector: 'projector', dispatcher: 'dispatcher' };

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const stateDir = path.resolve(o.stateDir);
  await fsp.rm(stateDir, { recursive: true, force: true });
  await fsp.mkdir(path.join(stateDir, 'logs'), { recursive: true });
  const hosts = topology(o);
  const host = (name: string): Host => {
    const h = hosts.find((x) => x.name === name);
    if (!h) throw new Error(`no host ${name} in this cluster`);
    return h;
  };
  const services = new Map<string, RunningService>();
  const brokers = new Map<string, KafkaService>();
  const apps = new Map<string, SupervisedApp>();
  let postgres: PostgresService | undefined;
  const dir = (name: string) => path.join(stateDir, name);
  const t0 = performance.now();
  const since = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all([...apps.values()].map((a) => a.stop(35_000)));
      const quietly = (s?: RunningService) => s?.stop().catch(() => s.kill());
      await quietly(services.get('haproxy'));
      await quietly(services.get('registry'));
      await Promise.all([...brokers.values()].map(quietly).concat(quietly(services.get('s3'))));
      await quietly(postgres);
      removeNetwork();
    })();
    return stopping;
  };

  try {
    createNetwork(hosts);
    o.say(`network: ${hosts.length} hosts on ${hosts[0]!.address.replace(/\.\d+$/, '.0/24')} (namespaces folio-*)`);

    const pgHost = only(hosts, 'postgres');
    const startPg = () => startPostgres({
      port: PORTS.postgres, address: pgHost.address, netns: pgHost.netns, allowFrom: `${pgHost.address.replace(/\.\d+$/, '.0')}/24`,
      dataDir: dir('postgres'),
    });
    const brokerHosts = byRole(hosts, 'broker');
    const clusterId = newClusterId();
    const startNode = (h: Host) => startKafka({
      port: PORTS.kafka, controllerPort: PORTS.kafkaController, address: h.address, netns: h.netns, dataDir: dir(h.name),
      cluster: { nodeId: brokerHosts.indexOf(h) + 1, voters: voters(hosts), size: brokerHosts.length, clusterId },
    });
    const storageHost = only(hosts, 'storage');
    const [pg, , s3] = await Promise.all([
      startPg().then((s) => (o.say(`postgres ready on ${pgHost.address} (${since()})`), s)),
      Promise.all(brokerHosts.map(async (h) => brokers.set(h.name, await startNode(h))))
        .then(() => o.say(`kafka: ${brokers.size} brokers ready (${since()})`)),
      startS3({ port: PORTS.s3, address: storageHost.address, netns: storageHost.netns, dataDir: dir('storage'), ...localS3 })
        .then((s) => (o.say(`s3 ready on ${storageHost.address} (${since()})`), s)),
    ]);
    postgres = pg;
    services.set('s3', s3);
    const kafkaBrokers = bootstrapBrokers(hosts);
    await waitFor(() => probeKafka(kafkaBrokers, brokerHosts.length), 60_000, 'every broker in the cluster metadata');

    const registryHost = only(hosts, 'registry');
    const registry = await startRegistry({
      port: PORTS.registry, address: registryHost.address, netns: registryHost.netns, dataDir: dir('registry'),
      databaseUrl: withDatabase(pg.url, 'schema_registry'),
    });
    services.set('registry', registry);
    o.say(`registry ready on ${registryHost.address} (${since()})`);

    const databaseUrl = await createDatabase(pg.url, 'folio');
    await migrateDatabase(databaseUrl);
    const env: Record<string, string> = {
      KAFKA_BROKERS: kafkaBrokers,
      SCHEMA_REGISTRY_URL: registry.url,
      DATABASE_URL: databaseUrl,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      FOLIO_KEY_SECRET_FILE: path.join(stateDir, 'key-secret'),
    };
    // The key secret is made here, once, before any app could race to make its own.
    await fsp.writeFile(env.FOLIO_KEY_SECRET_FILE!, randomBytes(32), { mode: 0o600 });

    const url = balancerUrl(hosts);
    const appEnv = (h: Host): NodeJS.ProcessEnv => ({
      ...process.env,
      ...env,
      FOLIO_PUBLIC_URL: url,
      FOLIO_STATE_DIR: dir(h.name),
      FOLIO_HOST: h.address,
      FOLIO_PORT: String(PORTS.api),
      // A member cut off is given up after 10 s, so its partitions (and their sync jobs) move within the ceiling.
      FOLIO_KAFKA_SESSION_TIMEOUT: '10',
      // Callbacks go to the receiver's host, which is on this private network.
      FOLIO_ALLOW_PRIVATE_HOSTS: only(hosts, 'receiver').address,
      ...o.appEnv,
    });
    const startApp = (name: AppName, h: Host) => {
      apps.set(h.name, superviseApp({
        name: h.name,
        entry: path.join(root, `apps/${name}/src/main.ts`),
        cwd: root,
        env: appEnv(h),
        logFile: path.join(stateDir, 'logs', `${h.name}.log`),
        pidFile: path.join(dir(h.name), `${name}.pid`),
        netns: h.netns,
      }, { say: o.say, giveUp: o.giveUp, minLevel: o.minLevel ?? 40 }));
    };
    for (const name of ['projector', 'dispatcher', 'renderer', 'api'] as const) {
      for (const h of byRole(hosts, APP_ROLES[name])) {
        await fsp.mkdir(dir(h.name), { recursive: true });
        startApp(name, h);
      }
    }
    const apiHosts = byRole(hosts, 'api');
    await Promise.all(apiHosts.map((h) => waitFor(isReady(apiUrl(h)), 180_000, `${h.name} ready`)));
    o.say(`apps started: ${[...apps.keys()].join(', ')} (${since()})`);
    services.set('haproxy', await startBalancer({ balancer: only(hosts, 'balancer'), apis: apiHosts, dataDir: dir('balancer') }));
    await waitFor(isReady(url), 30_000, 'the balancer passing /readyz');
    o.say(`balancer ready on ${url} (${since()})`);

    return {
      hosts,
      url,
      receiverUrl: receiverUrl(hosts),
      env,
      host,
      async stopApp(name) {
        await apps.get(name)?.stop(35_000);
        apps.delete(name);
      },
      startApp(name) {
        const h = host(name);
        const app = (Object.keys(APP_ROLES) as AppName[]).find((a) => APP_ROLES[a] === h.role);
        if (!app) throw new Error(`${name} runs no app`);
        if (!apps.has(name)) startApp(app, h);
      },
      running: (role) => byRole(hosts, role).filter((h) => apps.has(h.name)),
      killApp(name) {
        const pid = apps.get(name)?.pid;
        if (!pid) throw new Error(`${name} is not running`);
        process.kill(pid, 'SIGKILL');
      },
      async killBroker(name) {
        const node = brokers.get(name);
        if (!node) throw new Error(`no broker ${name}`);
        node.kill();
        await node.exited;
      },
      async startBroker(name) {
        const h = host(name);
        brokers.set(name, await startNode(h));
      },
      async restartPostgres() {
        await postgres!.stop();
        postgres = await startPg();
      },
      cutOff: (name) => cutOff(host(name)),
      reconnect: (name) => reconnect(host(name)),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** Polls `check` (a throw counts as not yet) until it is true: true then, false after `timeoutMs`. */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 300): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** `pollUntil`, throwing when the time is up. */
async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  if (!(await pollUntil(check, timeoutMs))) throw new Error(`timed out waiting for ${what}`);
}

/** Where an API host serves the interface. */
export const apiUrl = (h: Host): string => `http://${h.address}:${PORTS.api}`;

/** A check that the API at `url` answers /readyz with 200. */
export const isReady = (url: string) => async (): Promise<boolean> =>
  (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) })).ok;
