import { Type, type Static } from '@sinclair/typebox';
import { OUTPUTS } from '@folio/events';
import { HTML_LIMIT_TEXT, LIMITS, type ConvertRequest } from '../jobs/convert-request.ts';
import { documented } from '../openapi/documented.ts';
import { ApiError, type ParameterProblem } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';

const uri = (description: string) => Type.String({ format: 'uri', maxLength: 8192, description });

/** An address the service fetches: http or https (refused by `admitRequest`, naming `url` for page_url too). */
const HTTP_ADDRESS = { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' };
const fetched = (description: string) => documented(uri(description), HTTP_ADDRESS);

/** letter or a4, in any case (interface: page_size). */
export const PAGE_SIZE_PATTERN = '^([Ll][Ee][Tt][Tt][Ee][Rr]|[Aa]4)$';

/** The parameters of /v2/convert, as a body (JSON, form, multipart) or a query string. */
const PARAMETERS = {
    url: Type.Optional(fetched('page to fetch (http or https); the article is kept')),
    page_url: Type.Optional(fetched('deprecated alias of url')),
    // Over the limit is html_too_large (admitRequest), not a validation error: the length is stated, not validated.
    html: Type.Optional(
      documented(
        Type.String({
          description: `treated as the article body; scripts and unsafe content removed; up to 2 MB of markup (embedded data: images do not count toward that) and ${HTML_LIMIT_TEXT} in all, else html_too_large`,
        }),
        { maxLength: LIMITS.htmlChars },
      ),
    ),
    markdown: Type.Optional(Type.String({ maxLength: LIMITS.markdownChars, description: 'GitHub-flavoured Markdown' })),
    source_url: Type.Optional(uri('only with html; shown under the title and resolves relative links')),
    title: Type.Optional(Type.String({ maxLength: LIMITS.titleChars })),
    output: Type.Optional(Type.Union(OUTPUTS.map((o) => Type.Literal(o)), { default: 'pdf' })),
    page_size: Type.Optional(Type.String({ pattern: PAGE_SIZE_PATTERN, description: 'letter (default) or a4, case-insensitive' })),
    css_url: Type.Optional(fetched('stylesheet applied after the service’s own')),
    custom_css_url: Type.Optional(fetched('deprecated alias of css_url')),
    header_text: Type.Optional(Type.String({ maxLength: LIMITS.headerTextChars })),
    header_image_url: Type.Optional(fetched('image above the title')),
    lang: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9-]+$' })),
    dir: Type.Optional(Type.Union([Type.Literal('ltr'), Type.Literal('rtl')])),
    include_links: Type.Optional(Type.Boolean({ default: false })),
    async: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Union([Type.Literal('sync'), Type.Literal('async')])),
    webhook_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: LIMITS.webhookUrlChars,
        pattern: '^https://',
        description: 'only with async; https, on a public host: an address that is private, internal or does not resolve is refused with 400',
      }),
    ),
};

const present = (...names: string[]) => ({ required: names });
const asyncRequested = { anyOf: [{ ...present('async'), properties: { async: { const: true } } }, { ...present('mode'), properties: { mode: { const: 'async' } } }] };

/**
 * The rules between /v2/convert's parameters (interface: rules 1 and 3, the parameters' table), as JSON Schema for
 * the document. `interpret` checks them, so that each is refused with the interface's error naming the parameter;
 * the schema the route validates with carries them for the document only (`openapi/documented.ts`).
 */
const CONVERT_RULES = {
  allOf: [
    // Exactly one input: url (or its alias page_url), html or markdown.
    { oneOf: [present('url'), present('page_url'), present('html'), present('markdown')] },
    // An alias, or the name it stands for: one of them.
    { not: present('css_url', 'custom_css_url') },
    { if: present('source_url'), then: present('html') },
    { if: present('webhook_url'), then: asyncRequested },
    // mode and async, when both are sent, agree.
    { if: { ...present('async', 'mode'), properties: { async: { const: true } } }, then: { properties: { mode: { const: 'async' } } } },
    { if: { ...present('async', 'mode'), properties: { async: { const: false } } }, then: { properties: { mode: { const: 'sync' } } } },
  ],
};

/** The same rules in words, for the operations whose parameters OpenAPI cannot join by a schema (a query string). */
export const CONVERT_RULES_TEXT =
  'Exactly one of url (or its deprecated alias page_url), html or markdown; css_url or its deprecated alias custom_css_url, not both; ' +
  'source_url only with html; webhook_url only with async true or mode async; async and mode, when both are sent, agree. ' +
  'A request that breaks one of these is refused with 400 invalid_parameters naming the parameter. Addresses the service fetches ' +
  '(url, css_url, header_image_url) must be http or https and not lead to a private or internal network (400); webhook_url must be https ' +
  'on a public host that resolves (400).';

/** POST /v2/convert's body. The key is never a body field: the interface takes it in a header or the query string. */
export const ConvertParams = Type.Object(PARAMETERS, documented({ additionalProperties: true }, CONVERT_RULES));
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
