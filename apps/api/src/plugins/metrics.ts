import type { FastifyInstance } from 'fastify';
import { exposition, httpMetrics } from '@folio/metrics';

/**
 * Counts and times every answer (by route template, method, status and the key's plan), and, unless the metrics have
 * a port of their own (FOLIO_METRICS_PORT) or are off, serves them at `GET /metrics` on the public port, without a
 * key, as Prometheus scrapes it. Not in the OpenAPI document: it is the operator's, like /healthz and /readyz.
 */
export async function metricsPlugin(app: FastifyInstance, options: { serveOnPublicPort: boolean }): Promise<void> {
  const { requests } = httpMetrics();
  app.addHook('onResponse', async (request, reply) => {
    requests.observe(
      {
        // The template (`/v2/jobs/:job_id`), never the path: a path carries ids. Unrouted requests (404s) share one.
        route: request.routeOptions.url ?? 'unrouted',
        method: request.method,
        status: String(reply.statusCode),
        plan: request.apiKey?.plan ?? 'none',
      },
      reply.elapsedTime / 1000,
    );
  });
  if (!options.serveOnPublicPort) return;
  app.get('/metrics', { config: { auth: false } }, async (_request, reply) => {
    const { contentType, body } = await exposition();
    return reply.header('content-type', contentType).send(body);
  });
}
