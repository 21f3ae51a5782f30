import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ref, SCHEMAS } from './responses.ts';

type Responses = Record<string, unknown>;
type Operation = { responses?: Responses; security?: unknown; callbacks?: unknown; [k: string]: unknown };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown>; [k: string]: unknown };

const SECURITY = [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }, { basic: [] }];

const requestId = { 'X-Request-Id': { description: 'the request id (a sane one the client sent is echoed)', schema: { type: 'string' } } };
const retryAfter = { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...requestId, ...headers },
  content: json(ref('ErrorResponse')),
});

const CONVERT_RESPONSES: Responses = {
  200: {
    description: 'converted: a file (pdf, docx), content (markdown, html, text) or the article in pieces (json)',
    headers: requestId,
    content: json({ oneOf: [ref('ConvertFileResponse'), ref('ConvertContentResponse'), ref('ConvertJsonResponse')] }),
  },
  202: {
    description: 'accepted as a background job (async true or mode async)',
    headers: { ...requestId, Location: { description: 'the job’s status_url', schema: { type: 'string', format: 'uri' } } },
    content: json(ref('ConvertJobAccepted')),
  },
  400: error('invalid_parameters (naming each parameter), html_too_large'),
  401: error('api_key_required, invalid_api_key, subscription_inactive, limit_exceeded'),
  402: error('quota_exceeded: the free plan has no documents left this month (upgrade_url says where to upgrade)'),
  413: error('html_too_large'),
  422: error('fetch_failed, parse_failed, render_timeout, render_failed, homepage_url, content_blocked, invalid_parameters'),
  429: error('rate_limited', retryAfter),
};

const JOB_RESPONSES: Responses = {
  200: {
    description: 'the job; Retry-After while it is unfinished',
    headers: { ...requestId, ...retryAfter },
    content: json(ref('Job')),
  },
  401: error('api_key_required, invalid_api_key, subscription_inactive'),
  404: error('job_not_found: wrong id, another key’s job, or older than 48 hours'),
  422: error('invalid_parameters: the id is not a job id'),
  429: error('rate_limited (polling has its own budget)', retryAfter),
};

const LEGACY_MEDIA: Record<string, string> = { pdf: 'application/pdf', html: 'text/html', text: 'text/plain' };
const legacyError = (description: string) => ({ description, headers: requestId, content: json(ref('LegacyErrorResponse')) });
const legacyResponses = (kind: string): Responses => ({
  200: {
    description: 'the file’s link; the file itself when output_type is set or HTTP Basic authentication is used',
    headers: requestId,
    content: { ...json(ref('LegacyFileResponse')), [LEGACY_MEDIA[kind]!]: { schema: { type: 'string', format: 'binary' } } },
  },
  400: legacyError('parameters-validation, fetch-error, failed-parsed, timeout, large-page, catch-all'),
  401: legacyError('a missing, unknown or inactive key; API limit exceeded (the month’s quota or the key’s limit)'),
  404: legacyError('no such endpoint'),
  429: {
    description: 'too many requests (60 a minute); the body is empty',
    headers: {
      ...requestId,
      'X-RateLimit-Limit': { description: 'requests allowed in the period', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'requests left in the period', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'seconds to the end of the period', schema: { type: 'integer' } },
    },
  },
});

const CALLBACK = {
  jobFinished: {
    '{$request.body#/webhook_url}': {
      post: {
        summary: 'The job finished (succeeded or failed)',
        description:
          'Sent once per job started with a webhook_url, retried three times (after 2, 10 and 60 s) unless the receiver answers 2xx within 10 s. The body is byte for byte what GET /v2/jobs/{id} returns. Receivers deduplicate by job id.',
        parameters: [
          { name: 'X-Folio-Signature', in: 'header', required: true, description: 'HMAC-SHA256 of the raw body keyed with the API key that started the job', schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
          { name: 'X-Folio-Job-Id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        requestBody: { required: true, content: json(ref('Job')) },
        responses: { '2XX': { description: 'received; the body is ignored' } },
      },
    },
  },
};

/**
 * Completes the document fastify-swagger generated from the routes' own request schemas (the ones they validate
 * with) with what routes do not validate: the response bodies and headers, the security schemes and the callback.
 */
export function describeInterface(doc: Document): Document {
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas as object), ...JSON.parse(JSON.stringify(SCHEMAS)) },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (recommended)' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'may end up in logs; prefer a header' },
      basic: { type: 'http', scheme: 'basic', description: 'the key as user name, empty password; on the legacy endpoints the answer is the file itself' },
    },
  };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      operation.security = SECURITY;
      if (path === '/v2/convert') {
        operation.responses = CONVERT_RESPONSES;
        operation.callbacks = CALLBACK;
      } else if (path === '/v2/jobs/{id}') {
        operation.responses = JOB_RESPONSES;
      } else {
        const legacy = /^\/v2\/(pdf|html|text)\/create$/.exec(path);
        if (legacy) operation.responses = legacyResponses(legacy[1]!);
      }
      void method;
    }
  }
  return doc;
}

/**
 * GET /v2/openapi.json (OpenAPI 3.1, from the routes' schemas) and GET /docs (Swagger UI, served from this process:
 * no CDN). Registered before the routes, so every route is collected; routes outside the interface are left out.
 */
export async function interfaceDocs(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio',
        version: '2.0.0',
        description: 'Turns a web page, an HTML string or a Markdown string into pdf, docx, markdown, html, text or json.',
      },
      servers: [{ url: options.publicUrl }],
    },
    transform: ({ schema, url }) => {
      const inInterface = url.startsWith('/v2/') && url !== '/v2/openapi.json';
      return { schema: (inInterface ? schema : { ...schema, hide: true }) as never, url };
    },
    transformObject: (documentObject) => describeInterface((documentObject as { openapiObject: Document }).openapiObject) as never,
  });
  app.get('/v2/openapi.json', { config: { auth: false } }, async () => app.swagger());
  await app.register(async (docs) => {
    // The reference's pages and assets need no key.
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), auth: false } as never;
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, docExpansion: 'list' } });
  });
}
