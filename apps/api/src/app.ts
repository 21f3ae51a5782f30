import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@folio/logging';
import type { Db } from '@folio/db';
import type { LocalDiskStore } from '@folio/storage';
import { ApiError, toApiError } from './errors.ts';
import { BODY_BYTES, BODY_PARAMETERS, formBodyParser, lingerAfterEarlyAnswer, limitMultipartBody } from './body-limits.ts';
import { parseUrlEncoded, wellFormedParameters } from './intake.ts';
import { answerMalformedRequest } from './malformed-request.ts';
import { authPlugin } from './plugins/auth.ts';
import { corsPlugin } from './plugins/cors.ts';
import { undeclaredMethods } from './plugins/methods.ts';
import { interfaceDocs } from './openapi/document.ts';
import { ajvPlugin } from './openapi/documented.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { tracingPlugin } from './plugins/tracing.ts';
import type { RateLimiter } from './rate-limits/limiter.ts';
import { convertRoutes, type ConvertRouteOptions } from './routes/convert.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes, type Check } from './routes/health.ts';
import { jobRoutes } from './routes/jobs.ts';
import { jobHistoryRoutes } from './routes/job-history.ts';
import { jobActionRoutes } from './routes/job-actions.ts';
import { jobsPageRoutes } from './routes/jobs-page.ts';
import { legacyRoutes } from './routes/legacy.ts';

export interface AppOptions extends ConvertRouteOptions {
  logger: Logger;
  db: Db;
  checks: Record<string, Check>;
  /** Set when files live on local disk, so the API serves their signed links. */
  localFiles: LocalDiskStore | null;
  /** Per-key request budgets, shared by every API process. */
  limiter: RateLimiter;
  /** FOLIO_RATE_LIMIT_SCALE: every budget multiplied by it. */
  rateLimitScale: number;
  /** FOLIO_CORS_ORIGINS: web origins whose pages may call the API from a browser (none by default). */
  corsOrigins?: string[];
  /** GET /metrics on the public port (FOLIO_METRICS_PORT unset); otherwise they are on a port of their own, or off. */
  metricsOnPublicPort?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger.child({}, { serializers: { req: requestForLog } }) as FastifyBaseLogger,
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: 1024 * 1024,
    // Fastify 5 takes the router's options here (a top-level querystringParser is deprecated: FSTDEP022).
    routerOptions: { querystringParser: parseUrlEncoded },
    clientErrorHandler: answerMalformedRequest,
    // Requests fastify refuses before routing (a malformed URL, a bad content type) answer the interface error too.
    frameworkErrors: (error, request, reply) => {
      const apiError = toApiError(error as FastifyError, request as FastifyRequest);
      void (reply as FastifyReply).header('x-request-id', request.id).code(apiError.status).send({ status: 'failed', error: apiError.body() });
    },
    ajv: { customOptions: { coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: true }, plugins: [ajvPlugin] },
  }).withTypeProvider();

  // Every answer carries the request id, errors included: set first thing, and again on the way out for answers
  // made before any hook ran (a malformed URL, a body the parser refused).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply) => {
    if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
  });
  // Before any other hook and any route: a declared path asked with an undeclared method is 405 with Allow.
  undeclaredMethods(app);
  await metricsPlugin(app, { serveOnPublicPort: options.metricsOnPublicPort ?? true });
  // Before any route is declared: it wraps each handler in its request's span.
  await tracingPlugin(app);

  // Forms are decoded as they stream (body-limits.ts), so only their decoded bytes are ever held.
  app.addContentTypeParser('application/x-www-form-urlencoded', formBodyParser);
  app.addHook('onRequest', limitMultipartBody);
  // An answer before the body was read, on a connection that then closes, lets the client finish sending first.
  app.addHook('onSend', lingerAfterEarlyAnswer);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    // Parameters are text fields: a file part is refused by its name, and a field at the size limit (busboy cuts it
    // there without saying so loudly) is refused as too large by the intake hook, never converted cut short.
    onFile: (part: { fieldname: string }) => {
      throw ApiError.invalid(part.fieldname, 'files are not accepted; send parameters as text fields');
    },
    limits: { fieldSize: BODY_BYTES.multipart, fields: BODY_PARAMETERS, parts: BODY_PARAMETERS, files: 1 },
  });

  app.addHook('preValidation', wellFormedParameters);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.code === 'render_failed' && !(error instanceof ApiError)) request.log.error({ err: error }, 'request failed');
    if (apiError.extra.retryAfterSeconds !== undefined) reply.header('retry-after', apiError.extra.retryAfterSeconds);
    return reply.code(apiError.status).send({ status: 'failed', error: apiError.body() });
  });
  // A declared path asked with another method never gets here: undeclaredMethods answers it 405.
  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0]!;
    if (/^\/v2\/jobs\/[^/]*$/.test(path)) throw new ApiError('job_not_found', 'no job with that id under this key');
    throw new ApiError('invalid_parameters', `no route ${request.method} ${path}`, { status: 404 });
  });

  await interfaceDocs(app, { publicUrl: options.publicUrl });
  await corsPlugin(app, { origins: options.corsOrigins ?? [] });
  await authPlugin(app, { db: options.db, sql: options.view.sql, logger: options.logger });
  await rateLimitPlugin(app, { limiter: options.limiter, scale: options.rateLimitScale });
  await app.register(healthRoutes, { checks: options.checks });
  await app.register(convertRoutes, options);
  await app.register(legacyRoutes, options);
  await app.register(jobRoutes, { view: options.view, watch: options.watch });
  await app.register(jobHistoryRoutes, { view: options.view, watch: options.watch });
  await app.register(jobActionRoutes, options);
  await app.register(jobsPageRoutes);
  if (options.localFiles) await app.register(fileRoutes, { store: options.localFiles });
  return app;
}

/** What a request line shows in the logs: never the api_key query parameter, never a header. */
function requestForLog(req: { method: string; url: string; id?: string }) {
  return { method: req.method, url: req.url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]') };
}
