import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '@folio/events';

/** The bodies the interface answers with, as JSON Schema (TypeBox), for the OpenAPI document. */
const uri = Type.String({ format: 'uri' });
/** A reference to another schema of the document. */
export const ref = (name: string, options: { description?: string } = {}) => Type.Unsafe({ $ref: `#/components/schemas/${name}`, ...options });
const dateTime = Type.String({ format: 'date-time' });

export const Usage = Type.Object({
  used_this_period: Type.Integer({ minimum: 0, description: 'documents used so far this period (UTC month), counting this one' }),
  included: Type.Integer({ minimum: 0, description: 'documents the plan includes' }),
  plan: Type.Union([Type.Literal('free'), Type.Literal('paid')]),
});

const metaFields = {
  title: Type.String(),
  url: Type.Optional(uri),
  site: Type.Optional(Type.String({ description: 'hostname of the page' })),
  author: Type.Optional(Type.String()),
  date: Type.Optional(Type.String({ description: 'ISO 8601, when known' })),
  excerpt: Type.Optional(Type.String()),
  image: Type.Optional(uri),
  word_count: Type.Integer({ minimum: 0 }),
};
export const ArticleMeta = Type.Object(metaFields);
export const ArticleDocument = Type.Object({
  ...metaFields,
  content_html: Type.String({ description: 'clean article HTML' }),
  content_markdown: Type.String({ description: 'the article as Markdown' }),
});

export const ConvertFileResponse = Type.Object({
  status: Type.Literal('success'),
  output: Type.Union([Type.Literal('pdf'), Type.Literal('docx')]),
  file_url: Type.String({ format: 'uri', description: 'public link, valid 48 hours' }),
  expires_at: dateTime,
  size_bytes: Type.Integer({ minimum: 0 }),
  document: ArticleMeta,
  usage: Usage,
});
export const ConvertContentResponse = Type.Object({
  status: Type.Literal('success'),
  output: Type.Union([Type.Literal('markdown'), Type.Literal('html'), Type.Literal('text')]),
  content: Type.String({ description: 'the converted text' }),
  document: ArticleMeta,
  usage: Usage,
});
export const ConvertJsonResponse = Type.Object({
  status: Type.Literal('success'),
  output: Type.Literal('json'),
  document: ArticleDocument,
  usage: Usage,
});
export const ConvertJobAccepted = Type.Object({
  status: Type.Literal('queued'),
  job_id: Type.String({ format: 'uuid' }),
  status_url: Type.String({ format: 'uri', description: 'address of GET /v2/jobs/{id} for this job' }),
  expires_at: dateTime,
});

export const ErrorObject = Type.Object({
  code: Type.Union(Object.keys(ERROR_CODES).map((code) => Type.Literal(code))),
  message: Type.String({ description: 'for people; clients branch on code' }),
  retryable: Type.Boolean(),
  errors: Type.Optional(Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }), { description: 'invalid_parameters: each offending parameter' })),
  upgrade_url: Type.Optional(Type.String({ format: 'uri', description: 'quota_exceeded: where to upgrade' })),
});
export const ErrorResponse = Type.Object({ status: Type.Literal('failed'), error: ErrorObject });

export const Job = Type.Object({
  status: Type.Union([Type.Literal('queued'), Type.Literal('processing'), Type.Literal('succeeded'), Type.Literal('failed')]),
  job_id: Type.String({ format: 'uuid' }),
  created_at: dateTime,
  finished_at: Type.Optional(dateTime),
  result: Type.Optional(
    Type.Union([ref('ConvertFileResponse'), ref('ConvertContentResponse'), ref('ConvertJsonResponse')], {
      description: 'status succeeded: exactly the body a synchronous call would have returned with 200',
    }),
  ),
  error: Type.Optional(ref('ErrorObject', { description: 'status failed: the synchronous error object' })),
});

export const LegacyFileResponse = Type.Object({ status: Type.Literal('success'), file_url: uri });
export const LegacyErrorResponse = Type.Object({
  status: Type.Literal('failed'),
  message: Type.String(),
  type: Type.Union(
    ['parameters-validation', 'banned-domain', 'failed-parsed', 'fetch-error', 'high-load', 'invalid-file-ext', 'large-page', 'security-platform', 'timeout', 'catch-all'].map((t) =>
      Type.Literal(t),
    ),
  ),
});

/** Every schema above, by the name the document gives it under components.schemas. */
export const SCHEMAS: Record<string, TSchema> = {
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
};
