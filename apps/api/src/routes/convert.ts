import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { jobError } from '@folio/events';
import { renderResult, type ViewContext } from '@folio/job-view';
import type { NetworkPolicy } from '@folio/network-policy';
import { statusOf } from '../errors.ts';
import type { JobWatch } from '../jobs/watch.ts';
import { convertNow } from '../jobs/convert-now.ts';
import { queueJob, type SubmitContext } from '../jobs/submit.ts';
import { admitRequest } from '../jobs/admit.ts';
import { ConvertParams, interpret } from './convert-params.ts';

export interface ConvertRouteOptions {
  submit: SubmitContext;
  view: ViewContext;
  watch: JobWatch;
  network: NetworkPolicy;
  publicUrl: string;
  syncTimeoutMs: number;
}

/** POST and GET /v2/convert: one input to one output, as a synchronous answer or a background job. */
export async function convertRoutes(app: FastifyInstance, options: ConvertRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const handler = async (request: FastifyRequest, reply: FastifyReply, params: ConvertParams) => {
    const convert = interpret(params);
    await admitRequest(convert, options.network);
    const key = request.apiKey!;

    if (convert.async) {
      const event = await queueJob(options.submit, convert, { key, requestId: request.id });
      const statusUrl = `${options.publicUrl}/v2/jobs/${event.job_id}`;
      return reply
        .code(202)
        .header('location', statusUrl)
        .send({ status: 'queued', job_id: event.job_id, status_url: statusUrl, expires_at: event.expires_at });
    }

    const row = await convertNow(options, convert, { key, requestId: request.id });
    if (row.status === 'succeeded' && row.result) return reply.send(await renderResult(options.view, row, row.result, key.plan));
    const error = jobError(row.error?.code ?? 'render_failed', row.error?.message ?? 'conversion failed');
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
