import type { FastifyInstance } from 'fastify';

/** A readiness check: throws when not ready; may return (or attach to its error as `detail`) what it measured. */
export type Check = () => Promise<void | Record<string, unknown>>;

/**
 * /healthz: the process is up. /readyz: every dependency answers and every consumer group has a member, so jobs
 * flow (503 with the failing checks otherwise).
 */
export async function healthRoutes(app: FastifyInstance, options: { checks: Record<string, Check> }): Promise<void> {
  const config = { auth: false };
  app.get('/healthz', { config }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config }, async (_request, reply) => {
    const results = await Promise.all(
      Object.entries(options.checks).map(async ([name, check]) => {
        try {
          const detail = await withTimeout(check(), 3000);
          return [name, { ok: true, ...detail }] as const;
        } catch (error) {
          return [name, { ok: false, error: (error as Error).message, ...(error as { detail?: object }).detail }] as const;
        }
      }),
    );
    const ready = results.every(([, r]) => r.ok);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref())]);
}
