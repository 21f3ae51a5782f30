import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import { IDEMPOTENCY_HEADER, SANE_KEY } from '../jobs/idempotency.ts';
import { withDocumented } from './documented.ts';
import { SHARED_SCHEMAS } from '../schemas/bodies.ts';
import { HISTORY_SCHEMAS } from '../schemas/history.ts';
import { jobFinishedCallback } from '../schemas/responses.ts';
import { serializeAsSent } from '../schemas/serialize.ts';

/** The interface's four ways to send the API key (interface: Authentication), any one of which a request may use. */
const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API key>` (recommended)' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'the API key in a header of its own' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'the API key as a query parameter; it may end up in logs, so a header is preferred' },
  basic: {
    type: 'http',
    scheme: 'basic',
    description: 'the API key as the user name, an empty password; on the legacy /v2/*/create endpoints the answer is then the file itself',
  },
} as const;
const SECURITY = Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] }));

/** Every encoding a POST body may come in (interface: Endpoints). */
const BODY_ENCODINGS = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

const IdempotencyKeyHeader = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Type.String({
      pattern: SANE_KEY.source,
      description:
        'a retry with the same key and parameters within 24 hours gets the first request’s job, converted and counted once; ' +
        'the same key with other parameters within 24 hours is refused with 422 invalid_parameters naming Idempotency-Key',
    }),
  ),
});

type Operation = { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> }; parameters?: { in: string; name: string }[]; callbacks?: object };
type Document = { paths?: Record<string, Record<string, Operation>> };

/**
 * The interface's documentation, generated from the routes themselves: `GET /v2/openapi.json` (OpenAPI 3.1) and
 * `GET /docs` (Swagger UI, every asset served by this process: no CDN), both without a key. Called before any route
 * is registered, so @fastify/swagger sees every route and its schemas — the request schemas the routes validate with
 * and the response schemas of `schemas/`. Every route under /v2/ that needs a key is part of the interface and is
 * documented with the four security schemes; every other route (health, files, the documentation itself) is left out.
 * It also makes the app serialize every body with JSON.stringify, so the response schemas never change what is sent.
 */
export async function interfaceDocs(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  serializeAsSent(app);
  for (const schema of [...SHARED_SCHEMAS, ...HISTORY_SCHEMAS]) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio',
        version: '2.0.0',
        description:
          'Turns a web page, an HTML string or a Markdown string into pdf, docx, markdown, html, text or json: synchronously, ' +
          'or as a background job read at GET /v2/jobs/{id} and announced by a signed callback.',
      },
      servers: [{ url: options.publicUrl }],
      components: { securitySchemes: structuredClone(SECURITY_SCHEMES) as never },
      tags: [
        { name: 'convert', description: 'the unified endpoint: one input to one output' },
        { name: 'jobs', description: 'background jobs' },
        { name: 'history', description: 'beyond the interface: a key’s jobs, their histories from the log, reruns, callbacks sent again, the usage ledger' },
        { name: 'legacy', description: 'the older endpoints, kept unchanged' },
      ],
    },
    // Shared schemas keep their own names under components.schemas (not def-0, def-1, …).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      if (!isInterfaceRoute(url, route)) return { schema: { ...schema, hide: true } as never, url };
      // The rules the routes check themselves join the schemas they validate with (documented.ts).
      const documented: Record<string, unknown> = { ...withDocumented(schema), security: schema?.security ?? SECURITY };
      if (schema?.body) documented.consumes = BODY_ENCODINGS;
      if (route.method === 'POST' && url === '/v2/convert') documented.headers = IdempotencyKeyHeader;
      return { schema: documented as never, url };
    },
    transformObject: (generated) => withCallbacks((generated as { openapiObject: Document }).openapiObject) as never,
  });

  app.get('/v2/openapi.json', { config: { auth: false } }, async () => app.swagger());

  await app.register(async (docs) => {
    // The reference page and its assets are public, like the document.
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), auth: false } as never;
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, docExpansion: 'list' } });
  });
}

/** Part of the interface: under /v2/ and behind a key. */
function isInterfaceRoute(url: string, route: Pick<RouteOptions, 'config'>): boolean {
  return url.startsWith('/v2/') && (route.config as { auth?: boolean } | undefined)?.auth !== false;
}

/**
 * Every operation that takes a webhook_url announces the job-finished callback, addressed by the webhook_url of
 * its own request: the body's for POST, the query string's for GET.
 */
function withCallbacks(document: Document): Document {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const inBody = Object.values(operation.requestBody?.content ?? {}).some((media) => media.schema?.properties && 'webhook_url' in media.schema.properties);
      const inQuery = operation.parameters?.some((p) => p.in === 'query' && p.name === 'webhook_url');
      if (inBody) operation.callbacks = jobFinishedCallback('{$request.body#/webhook_url}');
      else if (inQuery) operation.callbacks = jobFinishedCallback('{$request.query.webhook_url}');
    }
  }
  return document;
}
