import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Lets web pages on the origins FOLIO_CORS_ORIGINS names call the API from a browser (the SDK runs there too). None
 * by default: an API key in a page is readable by anyone who loads it, so only an operator who chose that opens it.
 * Registered before authentication, so a preflight (which carries no key) is answered here and spends no budget;
 * every answer to an allowed origin, errors included, carries the headers, so the SDK can read a 401 or a 429.
 */
export async function corsPlugin(app: FastifyInstance, options: { origins: string[] }): Promise<void> {
  if (options.origins.length === 0) return;
  await app.register(cors, {
    origin: options.origins.includes('*') ? '*' : options.origins,
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    // What the SDK reads from an answer: the request id, when to retry, a job's address, the legacy budget.
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Location', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    maxAge: 600,
  });
}
