import type { FastifyInstance } from 'fastify';
import { context, contextOf, endSpan, SpanKind, startSpan, trace, tracing, type Context } from '@folio/tracing';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's span in its context: what the route's work (its events, its reads) continues. */
    traceContext: Context | null;
  }
}

/**
 * One server span a request, continuing the caller's W3C `traceparent`; each route's handler runs inside it, so the
 * events it writes carry it on (EventPublisher puts the active trace in the records' headers) and a job's trace goes
 * from this request through the log to its callback. Registered only when this process exports traces: otherwise
 * requests pay nothing for it.
 */
export async function tracingPlugin(app: FastifyInstance): Promise<void> {
  if (!tracing()) return;
  app.decorateRequest('traceContext', null);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unrouted';
    const { context: within } = startSpan(`${request.method} ${route}`, {
      parent: contextOf(request.headers),
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': route, 'folio.request_id': request.id },
    });
    request.traceContext = within;
  });
  // Hooks cannot wrap what follows them in a context; the handler can be wrapped where it is declared.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      return context.with(request.traceContext ?? context.active(), () => handler.call(this as never, request, reply));
    };
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.traceContext && trace.getSpan(request.traceContext);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    endSpan(span, reply.statusCode >= 500 ? new Error(`answered ${reply.statusCode}`) : undefined);
  });
}
