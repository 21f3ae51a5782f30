import { ConfigError, loadConfig, type Config } from '@folio/config';
import { EventCodec, topicNames, type Topics } from '@folio/events';
import { createKafka, ensureTopics, type KafkaClients } from '@folio/event-log';
import { createLogger, type Logger } from '@folio/logging';
import { collectProcessMetrics, serveMetrics, type MetricsServer } from '@folio/metrics';
import { startTracing } from '@folio/tracing';

export interface ServiceContext {
  config: Config;
  logger: Logger;
}

/** What every Folio process that talks to the log needs. */
export interface EventLogContext {
  kafka: KafkaClients;
  codec: EventCodec;
  topics: Topics;
}

export function connectEventLog(config: Config, logger: Logger, clientId: string): EventLogContext {
  const topics = topicNames(config.topicPrefix);
  return {
    kafka: createKafka({ clientId, brokers: config.kafkaBrokers, logger }),
    codec: new EventCodec(config.schemaRegistryUrl, topics),
    topics,
  };
}

export async function prepareTopics(config: Config, log: EventLogContext): Promise<void> {
  await ensureTopics(log.kafka, log.topics, {
    partitions: config.topicPartitions,
    retentionMs: config.logRetentionMs,
    replication: config.topicReplication,
    minInsync: config.topicMinInsync,
    allowUnsafe: config.allowUnsafeTopics,
  });
}

/**
 * Where each app serves its metrics unless FOLIO_METRICS_PORT says otherwise: beside the ports a Prometheus exporter
 * conventionally takes. The API has none here: its metrics are on its public port.
 */
export const DEFAULT_METRICS_PORTS: Readonly<Record<string, number>> = { renderer: 9464, projector: 9465, dispatcher: 9466 };

/**
 * Serves this process's metrics on a port of its own: FOLIO_METRICS_PORT, or the app's default when it is unset and
 * the app has one (the API has none: its metrics are on its public port unless a port is named). A port already taken
 * (a second renderer on one host with the same settings) is logged as an error and the app runs on without metrics:
 * losing its metrics is not worth stopping a renderer for.
 */
async function startMetrics(name: string, config: Config, logger: Logger, defaultPort: number | null): Promise<MetricsServer | null> {
  const port = config.metricsPort ?? defaultPort;
  // Node's own metrics only where they can be read (the API's are on its public port when `port` is null).
  if (port !== 'off') collectProcessMetrics();
  if (port === null || port === 'off') return null;
  try {
    const server = await serveMetrics({ host: config.metricsHost, port });
    logger.info({ url: `http://${config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost}:${server.port}/metrics` }, `${name} metrics served`);
    return server;
  } catch (error) {
    logger.error({ err: error, port }, `${name} metrics not served: port ${port} could not be listened on (FOLIO_METRICS_PORT names another, off turns them off)`);
    return null;
  }
}

/**
 * Runs a service process: reads the configuration (a clear message and exit 2 when it is wrong), starts the
 * service with its traces (when an OTLP endpoint is set) and metrics (`DEFAULT_METRICS_PORTS`), and on SIGINT/SIGTERM
 * stops it gracefully (in-flight work finishes, spans are flushed) with a hard deadline.
 */
export async function runService(
  name: string,
  start: (ctx: ServiceContext) => Promise<{ stop(): Promise<void> }>,
  options: { stopDeadlineMs?: number } = {},
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`folio ${name}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(name, config.logLevel);
  process.on('unhandledRejection', (error) => logger.error({ err: error }, 'unhandled rejection'));

  let running: { stop(): Promise<void> };
  let metrics: MetricsServer | null = null;
  let tracing: { stop(): Promise<void> } | null = null;
  try {
    // Before the service, so that its first request or event is traced.
    tracing = await startTracing(name);
    // The endpoint's origin only: a URL may carry credentials.
    if (tracing) logger.info({ endpoint: originOf(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT) }, `${name} exports traces`);
    running = await start({ config, logger });
    metrics = await startMetrics(name, config, logger, DEFAULT_METRICS_PORTS[name] ?? null);
  } catch (error) {
    logger.fatal({ err: error }, `${name} failed to start`);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    const deadline = setTimeout(() => {
      logger.error(`${name} did not stop in time; exiting`);
      process.exit(1);
    }, options.stopDeadlineMs ?? 30_000);
    deadline.unref();
    try {
      await running.stop();
      await metrics?.close();
      // The spans of the last work go out before the process does.
      await tracing?.stop().catch((error: unknown) => logger.warn({ err: error }, 'traces could not all be exported'));
      logger.info(`${name} stopped`);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${name} failed to stop cleanly`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return 'an endpoint that is not a URL';
  }
}
