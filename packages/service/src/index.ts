import { ConfigError, loadConfig, type Config } from '@folio/config';
import { EventCodec, topicNames, type Topics } from '@folio/events';
import { createKafka, ensureTopics, type KafkaClients } from '@folio/event-log';
import { createLogger, type Logger } from '@folio/logging';

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
 * Runs a service process: reads the configuration (a clear message and exit 2 when it is wrong), starts the
 * service, and on SIGINT/SIGTERM stops it gracefully (in-flight work finishes) with a hard deadline.
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
  try {
    running = await start({ config, logger });
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
