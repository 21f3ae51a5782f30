import { Kafka, logLevel, type ConsumerConfig, type LogEntry } from 'kafkajs';
import type { Logger } from '@folio/logging';
import { mendRequestQueue } from './request-queue.ts';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
mendRequestQueue();

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * kafkajs logs every retriable broker answer (a coordinator still loading, a leader election) as an error, and warns
 * that bounded producer retries weaken idempotence (Folio bounds them on purpose and deduplicates by event id).
 * Those are warnings here; a consumer crash stays an error.
 */
function levelOf(level: logLevel, message: string): 'error' | 'warn' | 'info' | 'debug' {
  if (message.startsWith('Limiting retries for the idempotent producer')) return 'debug';
  if (level === logLevel.ERROR && !message.startsWith('Crash')) return 'warn';
  return LEVELS[level] ?? 'info';
}

/**
 * A kafkajs client whose own logs go through the service logger. Retries are generous on purpose: a broker that is
 * away for a few seconds (a restart, a leader move) should delay work, not fail it.
 */
export function createKafka(options: { clientId: string; brokers: string[]; logger: Logger }): Kafka {
  const log = options.logger.child({ component: 'kafka' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: 3000,
    requestTimeout: 30000,
    retry: { initialRetryTime: 300, retries: 10, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        log[levelOf(level, message)](rest, message);
      },
  });
}

/**
 * How every Folio consumer group joins: a member is given up after `sessionTimeoutMs` without a heartbeat (so a
 * killed process's partitions move on quickly), fetches wait at most 250 ms, and topics are never created by reading.
 */
export function consumerConfig(groupId: string, sessionTimeoutMs: number): ConsumerConfig {
  return {
    groupId,
    sessionTimeout: sessionTimeoutMs,
    rebalanceTimeout: sessionTimeoutMs * 2,
    heartbeatInterval: Math.min(3000, sessionTimeoutMs / 3),
    maxWaitTimeInMs: 250,
    allowAutoTopicCreation: false,
  };
}
