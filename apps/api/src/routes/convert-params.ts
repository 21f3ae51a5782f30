import { Type, type Static } from '@sinclair/typebox';
import { OUTPUTS } from '@folio/events';
import { LIMITS, type ConvertRequest } from '../jobs/convert-request.ts';
import { ApiError, type ParameterProblem } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';

const uri = (description: string) => Type.String({ format: 'uri', maxLength: 8192, description });

/** The parameters of /v2/convert, as a body (JSON, form, multipart) or a query string. */
const PARAMETERS = {
    url: Type.Optional(uri('page to fetch; the article is kept')),
    page_url: Type.Optional(uri('deprecated alias of url')),
    html: Type.Optional(Type.String({ description: 'treated as the article body; scripts and unsafe content removed' })),
    markdown: Type.Optional(Type.String({ maxLength: LIMITS.markdownChars, description: 'GitHub-flavoured Markdown' })),
    source_url: Type.Optional(uri('only with html; shown under the title and resolves relative links')),
    title: Type.Optional(Type.String({ maxLength: LIMITS.titleChars })),
    output: Type.Optional(Type.Union(OUTPUTS.map((o) => Type.Literal(o)), { default: 'pdf' })),
    page_size: Type.Optional(Type.String({ description: 'letter (default) or a4, case-insensitive' })),
    css_url: Type.Optional(uri('stylesheet applied after the service’s own')),
    custom_css_url: Type.Optional(uri('deprecated alias of css_url')),
    header_text: Type.Optional(Type.String({ maxLength: LIMITS.headerTextChars })),
    header_image_url: Type.Optional(uri('image above the title')),
    lang: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9-]+$' })),
    dir: Type.Optional(Type.Union([Type.Literal('ltr'), Type.Literal('rtl')])),
    include_links: Type.Optional(Type.Boolean({ default: false })),
    async: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Union([Type.Literal('sync'), Type.Literal('async')])),
    webhook_url: Type.Optional(
      Type.String({ format: 'uri', maxLength: LIMITS.webhookUrlChars, pattern: '^https://', description: 'only with async; https, public host only' }),
    ),
};

/** POST /v2/convert's body. The key is never a body field: the interface takes it in a header or the query string. */
export const ConvertParams = Type.Object(PARAMETERS, { additionalProperties: true });
export type ConvertParams = Static<typeof ConvertParams>;

/** GET /v2/convert's query string: the same parameters, and the key when it is not sent in a header. */
export const ConvertQuery = Type.Object(
  { ...PARAMETERS, ...API_KEY_QUERY },
  { additionalProperties: true },
);

/** The rules between parameters that a schema cannot say. */
export function interpret(params: ConvertParams): ConvertRequest {
  const problems: ParameterProblem[] = [];
  const problem = (parameter: string, message: string) => problems.push({ parameter, message });

  if (params.url !== undefined && params.page_url !== undefined && params.url !== params.page_url) {
    problem('page_url', 'deprecated alias of url; send one of them');
  }
  const url = params.url ?? params.page_url;
  const inputs = [
    url !== undefined && { kind: 'url' as const, text: url },
    params.html !== undefined && { kind: 'html' as const, text: params.html },
    params.markdown !== undefined && { kind: 'markdown' as const, text: params.markdown },
  ].filter((i) => i !== false);
  if (inputs.length !== 1) {
    problem(inputs.length === 0 ? 'url' : 'input', 'send exactly one of url (or page_url), html, markdown');
  }
  if (params.source_url !== undefined && params.html === undefined) problem('source_url', 'only allowed with html');

  let pageSize: string | null = null;
  if (params.page_size !== undefined) {
    pageSize = params.page_size.toLowerCase();
    if (pageSize !== 'letter' && pageSize !== 'a4') problem('page_size', 'must be letter or a4');
  }
  if (params.css_url !== undefined && params.custom_css_url !== undefined && params.css_url !== params.custom_css_url) {
    problem('custom_css_url', 'deprecated alias of css_url; send one of them');
  }

  const fromMode = params.mode === undefined ? undefined : params.mode === 'async';
  if (params.async !== undefined && fromMode !== undefined && params.async !== fromMode) {
    problem('mode', `mode=${params.mode} disagrees with async=${params.async}`);
  }
  const isAsync = params.async ?? fromMode ?? false;
  if (params.webhook_url !== undefined && !isAsync) problem('webhook_url', 'only allowed with async');

  if (problems.length > 0) {
    throw ApiError.invalidAll(problems);
  }
  return {
    input: inputs[0]!,
    output: params.output ?? 'pdf',
    async: isAsync,
    webhookUrl: params.webhook_url ?? null,
    options: {
      title: params.title ?? null,
      source_url: params.source_url ?? null,
      page_size: pageSize,
      css_url: params.css_url ?? params.custom_css_url ?? null,
      header_text: params.header_text ?? null,
      header_image_url: params.header_image_url ?? null,
      lang: params.lang ?? null,
      dir: params.dir ?? null,
      include_links: params.include_links ?? false,
    },
  };
}
