import { Type, type TSchema } from '@sinclair/typebox';
import type { LegacyOutput } from '../routes/legacy-params.ts';

/**
 * What each route answers, by status: the `schema.response` of the interface's routes, and so the responses, headers
 * and callback of the OpenAPI document. A response is a body schema (a reference to one of `bodies.ts` by its `$id`)
 * plus the `description` and `headers` @fastify/swagger reads. Attaching them changes nothing that is sent: the app
 * serializes with JSON.stringify whatever the schema (`serialize.ts`).
 */

const ref = (id: string) => Type.Ref(id);

/** Response headers, by their name on the wire. */
export const HEADERS = {
  'X-Request-Id': Type.String({ description: 'the id of this request in Folio’s logs; a sane X-Request-Id the client sent is echoed' }),
  'Retry-After': Type.Integer({ minimum: 0, description: 'seconds to wait before trying again' }),
  Location: Type.String({ format: 'uri', description: 'the job’s status_url' }),
  'X-RateLimit-Limit': Type.Integer({ minimum: 0, description: 'requests allowed in the current period (a minute)' }),
  'X-RateLimit-Remaining': Type.Integer({ minimum: 0, description: 'requests left in the current period' }),
  'X-RateLimit-Reset': Type.Integer({ minimum: 0, description: 'seconds to the end of the current period' }),
} satisfies Record<string, TSchema>;

type HeaderName = keyof typeof HEADERS;
const headers = (...names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, HEADERS[name]]));

/** A JSON answer: its body schema, with what the document says of it and the headers it carries. */
function answer(description: string, body: TSchema, ...headerNames: HeaderName[]) {
  return { ...body, description, headers: headers('X-Request-Id', ...headerNames) };
}

const failure = (description: string, ...headerNames: HeaderName[]) => answer(description, ref('ErrorResponse'), ...headerNames);

/** POST and GET /v2/convert. */
export const convertResponses = {
  200: answer(
    'converted: the file behind a link (pdf, docx), the content inline (markdown, html, text) or the article in pieces (json)',
    Type.Union([ref('ConvertFileResponse'), ref('ConvertContentResponse'), ref('ConvertJsonResponse')]),
  ),
  202: answer('accepted as a background job (async true or mode async); read it at Location', ref('ConvertJobAccepted'), 'Location'),
  400: failure('invalid_parameters (errors names each parameter), or html_too_large'),
  401: failure('api_key_required, invalid_api_key, subscription_inactive or limit_exceeded'),
  402: failure('quota_exceeded: the free plan has no documents left this month (upgrade_url says where to upgrade)'),
  413: failure('html_too_large: the body or its html is over the limit'),
  422: failure(
    'the conversion failed: fetch_failed, parse_failed (also for html or markdown with no text or image left once made safe), ' +
      'render_timeout, render_failed, homepage_url, content_blocked or html_too_large; ' +
      'or invalid_parameters naming Idempotency-Key, sent before within 24 hours with other parameters',
  ),
  429: failure(
    'rate_limited: too many requests that start work, or a synchronous call the renderers’ backlog would keep past the 27 s ceiling (refused at once, nothing queued or counted); wait Retry-After seconds',
    'Retry-After',
  ),
};

/** GET /v2/jobs/{id}. */
export const jobResponses = {
  200: answer('the job; Retry-After (seconds) is sent while it is queued or processing', ref('Job'), 'Retry-After'),
  401: failure('api_key_required, invalid_api_key or subscription_inactive'),
  404: failure('job_not_found: a wrong id, another key’s job, or a job older than 48 hours'),
  422: failure('invalid_parameters: the id is not a job id (a uuid)'),
  429: failure('rate_limited: polling too often (its own budget, apart from starting work); wait Retry-After seconds', 'Retry-After'),
};

const LEGACY_MEDIA_TYPES: Record<LegacyOutput, string> = { pdf: 'application/pdf', html: 'text/html', text: 'text/plain' };
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** What a legacy endpoint answers: 200 JSON or the file itself, and its own error shape with 400, 401, 404 and 429. */
export function legacyResponses(output: LegacyOutput) {
  const legacyFailure = (description: string, ...headerNames: HeaderName[]) => answer(description, ref('LegacyErrorResponse'), ...headerNames);
  return {
    200: {
      description: `the file’s link as JSON; the file itself (${LEGACY_MEDIA_TYPES[output]}) when output_type is set or the key came by HTTP Basic`,
      headers: headers('X-Request-Id', ...RATE_LIMIT_HEADERS),
      content: {
        'application/json': { schema: ref('LegacyFileResponse') },
        [LEGACY_MEDIA_TYPES[output]]: { schema: Type.String({ contentMediaType: LEGACY_MEDIA_TYPES[output] }) },
      },
    },
    400: legacyFailure(
      'parameters-validation, fetch-error, failed-parsed, timeout, large-page, banned-domain or catch-all',
      ...RATE_LIMIT_HEADERS,
    ),
    401: legacyFailure('a missing, unknown or inactive key, or the API limit exceeded (the month’s documents or the key’s own limit)'),
    404: legacyFailure('no such endpoint'),
    429: {
      type: 'null',
      description: 'too many requests (60 a minute), or a renderers’ backlog that would keep the conversion past the ceiling (then Retry-After says when to come back); the body is empty',
      headers: headers('X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS),
    },
  };
}

/** The header a job-finished callback is signed with: HMAC-SHA256 of the raw body, keyed with the job's API key. */
export const SIGNATURE_HEADER = 'X-Folio-Signature';
export const JOB_ID_HEADER = 'X-Folio-Job-Id';

/**
 * The job-finished callback, as an OpenAPI callbacks object, sent to the address a runtime expression names (the
 * request's webhook_url). `openapi/document.ts` adds it to every operation that takes a webhook_url.
 */
export const jobFinishedCallback = (address: string) => ({
  jobFinished: {
    [address]: {
      post: {
        summary: 'The job finished',
        description:
          'Sent when a job started with a webhook_url succeeds or fails: once, retried three times (after 2, 10 and 60 seconds) ' +
          'unless the receiver answers 2xx within 10 seconds; redirects are not followed. The body is byte for byte what ' +
          'GET /v2/jobs/{id} returns. Retries can arrive after a slow success: deduplicate by job_id.',
        parameters: [
          {
            name: SIGNATURE_HEADER,
            in: 'header',
            required: true,
            description: '`sha256=` and the HMAC-SHA256 of the raw request body keyed with the API key that started the job, in lowercase hex',
            schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
          },
          { name: JOB_ID_HEADER, in: 'header', required: true, description: 'the job’s id', schema: { type: 'string', format: 'uuid' } },
          {
            name: 'webhook-id',
            in: 'header',
            required: true,
            description: 'Standard Webhooks: the message id, the job’s id (the same on every retry)',
            schema: { type: 'string', format: 'uuid' },
          },
          {
            name: 'webhook-timestamp',
            in: 'header',
            required: true,
            description: 'Standard Webhooks: when this attempt was sent, in seconds since the epoch (refuse old ones to stop replays)',
            schema: { type: 'string', pattern: '^[0-9]+$' },
          },
          {
            name: 'webhook-signature',
            in: 'header',
            required: true,
            description:
              'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the API key’s bytes ' +
              '(in a Standard Webhooks library: the key as a raw secret, or `whsec_` and the key in base64)',
            schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=$' },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
        responses: { '2XX': { description: 'received; the body is ignored' } },
      },
    },
  },
});
