import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES, OUTPUTS } from '@folio/events';
import { LEGACY_TYPES } from '../routes/legacy-errors.ts';

/**
 * The bodies the interface answers with, as TypeBox (JSON Schema with static types). Each has an `$id`: the app adds
 * them as shared schemas, routes refer to them by that id in `schema.response`, and the OpenAPI document names them
 * under `components.schemas` by it. They describe what the API sends; they never shape it (see `serialize.ts`).
 */

const uri = (description?: string) => Type.String({ format: 'uri', ...(description ? { description } : {}) });
const dateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
/** A reference to another of these schemas by its `$id`. */
const ref = (id: string) => Type.Ref(id);

export const Usage = Type.Object(
  {
    used_this_period: Type.Integer({ minimum: 0, description: 'documents used so far this period (the UTC month), counting this one' }),
    included: Type.Integer({ minimum: 0, description: 'documents the plan includes' }),
    plan: Type.Union([Type.Literal('free'), Type.Literal('paid')]),
  },
  { $id: 'Usage' },
);

const articleMetaFields = {
  title: Type.String(),
  url: Type.Optional(uri()),
  site: Type.Optional(Type.String({ description: 'hostname of the page' })),
  author: Type.Optional(Type.String()),
  date: Type.Optional(Type.String({ description: 'ISO 8601, when known' })),
  excerpt: Type.Optional(Type.String()),
  image: Type.Optional(uri('main image of the article')),
  word_count: Type.Integer({ minimum: 0 }),
};

export const ArticleMeta = Type.Object(articleMetaFields, { $id: 'ArticleMeta', description: 'the article the result was made from' });

export const ArticleDocument = Type.Object(
  {
    ...articleMetaFields,
    content_html: Type.String({ description: 'clean article HTML' }),
    content_markdown: Type.String({ description: 'the article as Markdown' }),
  },
  { $id: 'ArticleDocument', description: 'the article in pieces (output json)' },
);

const FILE_OUTPUTS = ['pdf', 'docx'] as const;
const CONTENT_OUTPUTS = OUTPUTS.filter((o) => o !== 'json' && !(FILE_OUTPUTS as readonly string[]).includes(o));

export const ConvertFileResponse = Type.Object(
  {
    status: Type.Literal('success'),
    output: Type.Union(FILE_OUTPUTS.map((o) => Type.Literal(o))),
    file_url: uri('public link, valid 48 hours'),
    expires_at: dateTime('when file_url stops working'),
    size_bytes: Type.Integer({ minimum: 0 }),
    document: ref('ArticleMeta'),
    usage: ref('Usage'),
  },
  { $id: 'ConvertFileResponse', description: 'output pdf or docx: the file behind a link' },
);

export const ConvertContentResponse = Type.Object(
  {
    status: Type.Literal('success'),
    output: Type.Union(CONTENT_OUTPUTS.map((o) => Type.Literal(o))),
    content: Type.String({ description: 'the converted text' }),
    document: ref('ArticleMeta'),
    usage: ref('Usage'),
  },
  { $id: 'ConvertContentResponse', description: 'output markdown, html or text: the result inline' },
);

export const ConvertJsonResponse = Type.Object(
  {
    status: Type.Literal('success'),
    output: Type.Literal('json'),
    document: ref('ArticleDocument'),
    usage: ref('Usage'),
  },
  { $id: 'ConvertJsonResponse', description: 'output json: the article in pieces' },
);

export const ConvertJobAccepted = Type.Object(
  {
    status: Type.Literal('queued'),
    job_id: Type.String({ format: 'uuid' }),
    status_url: uri('address of GET /v2/jobs/{id} for this job (also sent as Location)'),
    expires_at: dateTime('until when the job can be read'),
  },
  { $id: 'ConvertJobAccepted', description: 'accepted as a background job' },
);

export const ErrorObject = Type.Object(
  {
    code: Type.Union(Object.keys(ERROR_CODES).map((code) => Type.Literal(code)), { description: 'what went wrong; clients branch on it' }),
    message: Type.String({ description: 'for people; not to be parsed' }),
    retryable: Type.Boolean({ description: 'whether trying again can help (for rate_limited, after Retry-After)' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }), {
        description: 'invalid_parameters: each offending parameter',
      }),
    ),
    upgrade_url: Type.Optional(uri('quota_exceeded: where to upgrade')),
  },
  { $id: 'ErrorObject', description: 'the error of a refused request or of a failed job' },
);

export const ErrorResponse = Type.Object(
  { status: Type.Literal('failed'), error: ref('ErrorObject') },
  { $id: 'ErrorResponse', description: 'a refused or failed request' },
);

export const Job = Type.Object(
  {
    status: Type.Union([Type.Literal('queued'), Type.Literal('processing'), Type.Literal('succeeded'), Type.Literal('failed')]),
    job_id: Type.String({ format: 'uuid' }),
    created_at: dateTime(),
    finished_at: Type.Optional(dateTime('when the job succeeded or failed')),
    result: Type.Optional(
      Type.Union([ref('ConvertFileResponse'), ref('ConvertContentResponse'), ref('ConvertJsonResponse')], {
        description: 'status succeeded: exactly the body a synchronous call would have returned with 200',
      }),
    ),
    error: Type.Optional(ref('ErrorObject')),
  },
  {
    $id: 'Job',
    description:
      'an asynchronous job: `result` once it succeeded, `error` (what a synchronous call would have answered with) once it failed; also the body of the job-finished callback, byte for byte',
  },
);

export const LegacyFileResponse = Type.Object(
  { status: Type.Literal('success'), file_url: uri('link to the file, valid 48 hours') },
  { $id: 'LegacyFileResponse', description: 'legacy endpoints: the file behind a link' },
);

export const LegacyErrorResponse = Type.Object(
  {
    status: Type.Literal('failed'),
    message: Type.String(),
    type: Type.Union(LEGACY_TYPES.map((t) => Type.Literal(t))),
  },
  { $id: 'LegacyErrorResponse', description: 'legacy endpoints: a refused or failed request' },
);

/** Every shared schema, in an order where each comes after those it refers to. */
export const SHARED_SCHEMAS: TSchema[] = [
  Usage,
  ArticleMeta,
  ArticleDocument,
  ConvertFileResponse,
  ConvertContentResponse,
  ConvertJsonResponse,
  ConvertJobAccepted,
  ErrorObject,
  ErrorResponse,
  Job,
  LegacyFileResponse,
  LegacyErrorResponse,
];
