import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { jobFailed, newJobId, renderTimeoutError } from '@folio/events';
import { loadJob, renderResult, type ViewContext } from '@folio/job-view';
import type { NetworkPolicy } from '@folio/network-policy';
import { ApiError, statusOf } from '../errors.ts';
import type { JobWatch } from '../jobs/watch.ts';
import { queueJob, type SubmitContext } from '../jobs/submit.ts';
import { ConvertParams, interpret, LIMITS, type ConvertRequest } from './convert-params.ts';

export interface ConvertRouteOptions {
  submit: SubmitContext;
  view: ViewContext;
  watch: JobWatch;
  network: NetworkPolicy;
  publicUrl: string;
  syncTimeoutMs: number;
}

/** How long the API waits, after recording a timeout, to learn which terminal event the log kept. */
const SETTLE_MS = 5000;

/** POST and GET /v2/convert: one input to one output, as a synchronous answer or a background job. */
export async function convertRoutes(app: FastifyInstance, options: ConvertRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const handler = async (request: FastifyRequest, reply: FastifyReply, params: ConvertParams) => {
    const convert = interpret(params);
    await admit(convert, options.network);
    const key = request.apiKey!;

    if (convert.async) {
      const event = await queueJob(options.submit, convert, { keyId: key.id, requestId: request.id });
      const statusUrl = `${options.publicUrl}/v2/jobs/${event.job_id}`;
      return reply
        .code(202)
        .header('location', statusUrl)
        .send({ status: 'queued', job_id: event.job_id, status_url: statusUrl, expires_at: event.expires_at });
    }

    // A synchronous call is a job too: register the wait before the job can possibly finish, then queue it.
    const jobId = newJobId();
    const waiting = options.watch.waitForFinal(jobId, options.syncTimeoutMs);
    try {
      await queueJob(options.submit, convert, { keyId: key.id, requestId: request.id, jobId });
    } catch (error) {
      waiting.cancel();
      throw error;
    }
    let status = await waiting.promise;
    if (status === null) {
      // Record the timeout as the job's outcome; if the renderer's success reached the log first, that one stands.
      const settled = options.watch.waitForFinal(jobId, SETTLE_MS);
      const timeout = renderTimeoutError(options.syncTimeoutMs);
      await options.submit.publisher.publish(jobFailed(jobId, null, 'api', timeout));
      status = await settled.promise;
      if (status === null) throw new ApiError('render_timeout', timeout.message);
    }
    const row = await loadJob(options.view.sql, jobId, key.id);
    if (!row) throw new ApiError('render_failed', 'the job finished but could not be read back');
    if (row.status === 'succeeded' && row.result) return reply.send(await renderResult(options.view, row, row.result, key.plan));
    const error = row.error ?? { code: 'render_failed', message: 'conversion failed', retryable: true };
    return reply.code(statusOf(error.code)).send({ status: 'failed', error });
  };

  const schema = { tags: ['convert'], summary: 'Convert one input to one output' };
  typed.post('/v2/convert', { schema: { ...schema, body: ConvertParams }, bodyLimit: 64 * 1024 * 1024 }, (request, reply) =>
    handler(request, reply, request.body),
  );
  typed.get('/v2/convert', { schema: { ...schema, querystring: ConvertParams } }, (request, reply) =>
    handler(request, reply, request.query),
  );
}

/** What the engine and the interface's limits refuse before any job exists. */
async function admit(request: ConvertRequest, network: NetworkPolicy): Promise<void> {
  const { input } = request;
  if (input.kind === 'html') {
    if (input.text.length > LIMITS.htmlChars) {
      throw new ApiError('html_too_large', `html is over ${LIMITS.htmlChars} characters`);
    }
    const markup = Buffer.byteLength(input.text.replace(/data:[^"'\s)]+/g, ''));
    if (markup > LIMITS.htmlMarkupBytes) throw new ApiError('html_too_large', 'html is over 2 MB of markup (data: images excluded)');
  }
  if (input.kind === 'url' && !/^https?:\/\//i.test(input.text)) {
    throw ApiError.invalid('url', 'must be an http or https address');
  }
  if (request.webhookUrl) {
    const host = new URL(request.webhookUrl).hostname;
    if (!(await network.allowsHost(host))) {
      throw ApiError.invalid('webhook_url', 'must point at a public host (private, internal and unresolvable addresses are refused)');
    }
  }
}
