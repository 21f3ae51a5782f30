import { Type, type Static } from '@sinclair/typebox';
import { ApiError, type ParameterProblem } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';
import { HTML_LIMIT_TEXT, LIMITS, type ConvertRequest } from '../jobs/convert-request.ts';
import { documented } from '../openapi/documented.ts';
import { PAGE_SIZE_PATTERN } from './convert-params.ts';

/** The three legacy endpoints and the output each makes: a pdf, a printable HTML page, a plain text file. */
export const LEGACY_OUTPUTS = ['pdf', 'html', 'text'] as const;
export type LegacyOutput = (typeof LEGACY_OUTPUTS)[number];

/** How the file itself is handed over (Content-Disposition); attachment and download mean the same. */
export const OUTPUT_TYPES = ['attachment', 'download', 'inline'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

/** Parameters of /v2/convert that the legacy endpoints do not take (interface: legacy rule 4). */
export const REFUSED_PARAMETERS = ['async', 'mode', 'webhook_url', 'output', 'markdown'] as const;

const uri = (description: string) => Type.String({ format: 'uri', maxLength: 8192, description });

/**
 * The parameters of POST and GET /v2/{pdf,html,text}/create, as a body (JSON, form, multipart) or a query string.
 * The interface sets no length on title and header_text here; they get /v2/convert's 500 characters, since both
 * ride inside the job's event (which must stay small) and are printed on one line.
 */
export const LegacyParams = Type.Object(
  {
    page_url: Type.Optional(uri('page to convert (http or https); with html, the address the html came from (shown under the title, resolves relative links)')),
    // Over the limit is a large-page refusal from admitRequest, not a validation error: stated, not validated.
    html: Type.Optional(
      documented(Type.String({ description: `used as sent (scripts and unsafe content removed); wins over page_url; up to ${HTML_LIMIT_TEXT} and 2 MB of markup` }), {
        maxLength: LIMITS.htmlChars,
      }),
    ),
    output_type: Type.Optional(
      Type.Union(OUTPUT_TYPES.map((t) => Type.Literal(t)), { description: 'when set, the file itself is returned instead of JSON' }),
    ),
    css_url: Type.Optional(uri('stylesheet applied after the service’s own')),
    header_image_url: Type.Optional(uri('image above the title')),
    header_text: Type.Optional(Type.String({ maxLength: LIMITS.headerTextChars, description: 'line of text above the title' })),
    page_size: Type.Optional(Type.String({ pattern: PAGE_SIZE_PATTERN, description: 'Letter (default) or A4, case-insensitive; for pdf' })),
    title: Type.Optional(Type.String({ maxLength: LIMITS.titleChars, description: 'title for html input' })),
    lang: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9-]+$', description: 'language of the content' })),
    dir: Type.Optional(Type.Union([Type.Literal('ltr'), Type.Literal('rtl')])),
    ...API_KEY_QUERY,
  },
  documented(
    { additionalProperties: true },
    {
      // Interface, legacy rules 1 and 4: page_url or html (or both), and none of /v2/convert's own parameters.
      allOf: [{ anyOf: [{ required: ['page_url'] }, { required: ['html'] }] }, { not: { anyOf: REFUSED_PARAMETERS.map((name) => ({ required: [name] })) } }],
    },
  ),
);

/** The legacy rules in words, for the GET variants (a query string's parameters cannot be joined by a schema). */
export const LEGACY_RULES_TEXT =
  `page_url or html must be sent (html wins when both are; page_url then becomes its source). ${REFUSED_PARAMETERS.join(', ')} are not accepted. ` +
  'A request that breaks one of these is refused with 400 parameters-validation.';
export type LegacyParams = Static<typeof LegacyParams>;

/**
 * A legacy request as the ConvertRequest every conversion is: always synchronous, never a webhook, the endpoint's
 * output. With both page_url and html, the html is converted (it is what the caller has in hand, and the interface
 * calls it "used as sent") and page_url becomes its source_url, as on /v2/convert: shown under the title and the
 * base of relative links. Nothing is fetched from it.
 */
export function legacyRequest(params: LegacyParams, output: LegacyOutput): ConvertRequest {
  const problems: ParameterProblem[] = [];
  const sent = params as Record<string, unknown>;
  for (const name of REFUSED_PARAMETERS) {
    if (sent[name] !== undefined) problems.push({ parameter: name, message: 'not accepted by the legacy endpoints (use /v2/convert)' });
  }
  if (params.page_url === undefined && params.html === undefined) {
    problems.push({ parameter: 'page_url', message: 'send page_url or html' });
  }
  let pageSize: string | null = null;
  if (params.page_size !== undefined) {
    pageSize = params.page_size.toLowerCase();
    if (pageSize !== 'letter' && pageSize !== 'a4') problems.push({ parameter: 'page_size', message: 'must be Letter or A4' });
  }
  if (problems.length > 0) throw ApiError.invalidAll(problems);

  const input = params.html !== undefined ? { kind: 'html' as const, text: params.html } : { kind: 'url' as const, text: params.page_url! };
  return {
    input,
    output,
    async: false,
    webhookUrl: null,
    options: {
      title: params.title ?? null,
      source_url: input.kind === 'html' ? (params.page_url ?? null) : null,
      page_size: pageSize,
      css_url: params.css_url ?? null,
      header_text: params.header_text ?? null,
      header_image_url: params.header_image_url ?? null,
      lang: params.lang ?? null,
      dir: params.dir ?? null,
      include_links: false,
    },
  };
}
