import type { FastifyInstance } from 'fastify';
import { httpMetrics } from '@folio/metrics';
import { ApiError } from '../errors.ts';
import { budgetOf, type Bucket } from '../rate-limits/budgets.ts';
import type { RateLimiter } from '../rate-limits/limiter.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget a route's requests spend (none: not limited). */
    rateLimit?: Bucket;
  }
}

/**
 * Spends a route's budget once its key is known (after authentication). The unified endpoints answer a spent budget
 * with the interface's rate_limited error and an integer Retry-After; the legacy endpoints with 429, the
 * X-RateLimit-* headers and an empty body, as they always did (and send those headers on every answer).
 */
export async function rateLimitPlugin(app: FastifyInstance, options: { limiter: RateLimiter; scale: number }): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    const bucket = request.routeOptions.config.rateLimit;
    const key = request.apiKey;
    if (!bucket || !key) return;
    const decision = await options.limiter.take(key.id, bucket, budgetOf(bucket, key.plan, options.scale));
    if (!decision.allowed) httpMetrics().rateLimited.inc({ limit: 'requests', plan: key.plan });
    if (bucket === 'legacy') {
      reply.header('x-ratelimit-limit', decision.limit);
      reply.header('x-ratelimit-remaining', decision.remaining);
      reply.header('x-ratelimit-reset', decision.resetSeconds);
      if (!decision.allowed) return reply.code(429).send();
      return;
    }
    if (!decision.allowed) {
      reply.header('retry-after', decision.resetSeconds);
      throw new ApiError('rate_limited', `this key made more than ${decision.limit} such requests this minute; wait ${decision.resetSeconds} s`);
    }
  });
}
