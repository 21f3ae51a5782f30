import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { jobError, type ErrorCode } from '@folio/events';
import type { JobRow } from '@folio/projections';
import { redeem, type BlobStore } from '@folio/storage';
import { ApiError, toApiError } from '../errors.ts';
import { admitRequest } from '../jobs/admit.ts';
import { convertNow } from '../jobs/convert-now.ts';
import type { ConvertRouteOptions } from './convert.ts';
import { BODY_BYTES } from '../body-limits.ts';
import { legacyFailure, legacyNoRoute } from './legacy-errors.ts';
import { LEGACY_OUTPUTS, LEGACY_RULES_TEXT, LegacyParams, legacyRequest, type LegacyOutput, type OutputType } from './legacy-params.ts';
import { legacyResponses } from '../schemas/responses.ts';

/**
 * The route config the rate-limit plugin reads: the legacy endpoints share their own 60 requests a minute, answered
 * 429 with X-RateLimit-* headers and an empty body. (Declared as a value, not a literal, so this file needs no type
 * of its own for that plugin's config.)
 */
const LEGACY_CONFIG = { rateLimit: 'legacy' as const };

/**
 * POST and GET /v2/pdf/create, /v2/html/create and /v2/text/create: the older endpoints, kept as the interface
 * describes them. Each is a synchronous conversion like /v2/convert's (the same admission, the same job, the same
 * meter), answered the legacy way: `{status: "success", file_url}`, or the file itself when output_type is set or
 * the key came by HTTP Basic; and every failure, from validation, authentication, routing or the job, as
 * `{status: "failed", message, type}` with a legacy status (`legacy-errors.ts`).
 */
export async function legacyRoutes(app: FastifyInstance, options: ConvertRouteOptions): Promise<void> {
  // Encapsulated here, so it also answers what the app-wide auth hook and body parsers throw on these routes.
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.code === 'render_failed' && !(error instanceof ApiError)) request.log.error({ err: error }, 'request failed');
    // A backlog too long for the ceiling is a 429 as the legacy rate limit answers it: an empty body, and Retry-After.
    if (apiError.extra.retryAfterSeconds !== undefined) return reply.code(429).header('retry-after', apiError.extra.retryAfterSeconds).send();
    const { status, body } = legacyFailure(apiError);
    return reply.code(status).send(body);
  });

  const handler = (output: LegacyOutput) => async (request: FastifyRequest, reply: FastifyReply, params: LegacyParams) => {
    const convert = legacyRequest(params, output);
    await admitRequest(convert, options.network);
    const key = request.apiKey!;
    const row = await convertNow(options, convert, { key, requestId: request.id });
    if (row.status !== 'succeeded' || !row.result) {
      const error = jobError(row.error?.code ?? 'render_failed', row.error?.message ?? 'conversion failed');
      throw new ApiError(error.code as ErrorCode, error.message);
    }
    // Basic authentication is how a browser or a plain link asks: the file itself, shown where it is opened.
    const handOver: OutputType | null = params.output_type ?? (request.authScheme === 'basic' ? 'inline' : null);
    if (handOver === null) return reply.send({ status: 'success', file_url: await resultLink(options.view.store, row) });
    const file = await resultFile(options.view.store, row);
    const disposition = handOver === 'inline' ? 'inline' : 'attachment';
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', `${disposition}; filename="${fileName(row)}.${file.extension}"`)
      .header('x-content-type-options', 'nosniff');
    // The page carries its own no-script policy; a sandbox keeps it off this origin even if something slipped through.
    if (file.extension === 'html') reply.header('content-security-policy', 'sandbox');
    return reply.send(file.bytes);
  };

  for (const output of LEGACY_OUTPUTS) {
    await app.register(
      async (scope) => {
        const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
        // Any other path under the endpoint's prefix is a legacy 404 too (a method /create lacks: 405, plugins/methods.ts).
        scope.setNotFoundHandler((request, reply) => reply.code(404).send(legacyNoRoute(request.method, request.url.split('?')[0]!)));
        const schema = { tags: ['legacy'], summary: SUMMARY[output], description: LEGACY_RULES_TEXT, response: legacyResponses(output) };
        const run = handler(output);
        typed.post('/create', { schema: { ...schema, body: LegacyParams }, bodyLimit: BODY_BYTES.json, config: LEGACY_CONFIG }, (request, reply) =>
          run(request, reply, request.body),
        );
        // No HEAD twin: it would run (and count) a conversion to answer without a body.
        typed.get('/create', { schema: { ...schema, querystring: LegacyParams }, exposeHeadRoute: false, config: LEGACY_CONFIG }, (request, reply) =>
          run(request, reply, request.query),
        );
      },
      { prefix: `/v2/${output}` },
    );
  }
}

const SUMMARY: Record<LegacyOutput, string> = {
  pdf: 'Legacy: a page or html as a pdf',
  html: 'Legacy: a page or html as a printable HTML page',
  text: 'Legacy: a page or html as a plain text file',
};

interface ResultFile {
  bytes: Buffer;
  contentType: string;
  extension: 'pdf' | 'html' | 'txt';
}

/** A succeeded job's result as one file: the pdf the renderer stored, or the html page or text it returned inline. */
async function resultFile(store: BlobStore, row: JobRow): Promise<ResultFile> {
  const result = row.result!;
  if (result.file) return { bytes: await store.get(result.file.key), contentType: 'application/pdf', extension: 'pdf' };
  const content = (await redeem(store, { text: result.content, ref: result.content_ref })) ?? '';
  return result.output === 'html'
    ? { bytes: Buffer.from(content), contentType: 'text/html; charset=utf-8', extension: 'html' }
    : { bytes: Buffer.from(content), contentType: 'text/plain; charset=utf-8', extension: 'txt' };
}

/**
 * A link to the result, as pdf and docx have one on /v2/convert. The html and text results live inside the job's
 * result, so they are stored as a file here, under a key made from the job id and signed as of the job's end: the
 * link lives as long as a pdf's and reads the same every time.
 */
async function resultLink(store: BlobStore, row: JobRow): Promise<string> {
  const result = row.result!;
  if (result.file) return (await store.link(result.file.key, new Date(result.file.stored_at))).url;
  const file = await resultFile(store, row);
  const key = `files/${row.job_id}.${file.extension}`;
  await store.put(key, file.bytes, file.contentType);
  return (await store.link(key, new Date(row.finished_at ?? Date.now()))).url;
}

/** The file's name from the article's title, in letters and digits only (nothing to escape in the header). */
function fileName(row: JobRow): string {
  const slug = (row.result?.document.title ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'document';
}
