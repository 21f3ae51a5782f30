import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * JSON logs, one line an event. Children carry `request_id` and `job_id` so every line of a job's life can be
 * found. Credentials never reach a log line: the redaction list covers every place a key or secret can sit.
 */
export function createLogger(service: string, level = process.env.FOLIO_LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.query.api_key',
        'headers.authorization',
        'headers["x-api-key"]',
        'api_key',
        'apiKey',
        'key',
        'secret',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}
