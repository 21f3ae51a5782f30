import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { jobError, newJobId } from '@folio/events';
import { loadJob, renderResult, type ViewContext, type ViewedJob } from '@folio/job-view';
import type { Plan } from '@folio/keys';
import type { NetworkPolicy } from '@folio/network-policy';
import { ApiError, statusOf } from '../errors.ts';
import type { JobWatch } from '../jobs/watch.ts';
import type { SyncLane } from '../jobs/sync-lane.ts';
import { awaitConversion, convertNow } from '../jobs/convert-now.ts';
import { claimIdempotencyKey, releaseIdempotencyKey } from '../jobs/idempotency.ts';
import { releaseUnlessQueued } from '../jobs/unknown-outcome.ts';
import { queueJob, type SubmitContext } from '../jobs/submit.ts';
import { admitRequest } from '../jobs/admit.ts';
import { replyQueued } from '../jobs/accepted.ts';
import { CONVERT_RULES_TEXT, ConvertParams, ConvertQuery, interpret } from './convert-params.ts';
import { BODY_BYTES } from '../body-limits.ts';
import { convertResponses } from '../schemas/responses.ts';

export interface ConvertRouteOptions {
  submit: SubmitContext;
  view: ViewContext;
  watch: JobWatch;
  network: NetworkPolicy;
  publicUrl: string;
  syncTimeoutMs: number;
  syncLane: Pick<SyncLane, 'admit'>;
}

/** POST and GET /v2/convert: one input to one output, as a synchronous answer or a background job. */
export async function convertRoutes(app: FastifyInstance, options: ConvertRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const handler = async (request: FastifyRequest, reply: FastifyReply, params: ConvertParams) => {
    const convert = interpret(params);
    await admitRequest(convert, options.network);
    const key = request.apiKey!;
    const meta = { key, requestId: request.id };

    // A retry under the same Idempotency-Key gets the first request's job: nothing is converted or counted again.
    const claim =
      request.method === 'POST'
        ? await claimIdempotencyKey(options.submit.sql, request.headers['idempotency-key'], { keyId: key.id, request: convert, jobId: newJobId() })
        : null;
    if (claim?.kind === 'replay') {
      if (convert.async) return accepted(reply, await loadQueued(options, claim.jobId, key.id));
      return answer(reply, await awaitConversion(options, claim.jobId, key.id), key.plan);
    }

    try {
      if (convert.async) {
        const event = await queueJob(options.submit, convert, { ...meta, jobId: claim?.jobId });
        return accepted(reply, { jobId: event.job_id, expiresAt: event.expires_at });
      }
      return answer(reply, await convertNow(options, convert, { ...meta, jobId: claim?.jobId }), key.plan);
    } catch (error) {
      // Refused before its job reached the log: the key is free for a retry that converts for real.
      if (claim && !(error instanceof ApiError && error.code === 'render_timeout')) {
        await releaseUnlessQueued(options.submit.sql, claim.jobId, error, () => releaseIdempotencyKey(options.submit.sql, key.id, claim.jobId));
      }
      throw error;
    }
  };

  const accepted = (reply: FastifyReply, job: { jobId: string; expiresAt: string }) => replyQueued(reply, options.publicUrl, job);

  const answer = async (reply: FastifyReply, row: ViewedJob, plan: Plan) => {
    if (row.status === 'succeeded' && row.result) return reply.send(await renderResult(options.view, row, row.result, plan));
    const error = jobError(row.error?.code ?? 'render_failed', row.error?.message ?? 'conversion failed');
    return reply.code(statusOf(error.code)).send({ status: 'failed', error });
  };

  const schema = { tags: ['convert'], summary: 'Convert one input to one output', description: CONVERT_RULES_TEXT, response: convertResponses };
  typed.post('/v2/convert', { schema: { ...schema, body: ConvertParams }, bodyLimit: BODY_BYTES.json, config: { rateLimit: 'convert' } }, (request, reply) =>
    handler(request, reply, request.body),
  );
  // No HEAD twin: fastify's would run (and count) a conversion to answer without a body.
  typed.get('/v2/convert', { schema: { ...schema, querystring: ConvertQuery }, exposeHeadRoute: false, config: { rateLimit: 'convert' } }, (request, reply) =>
    handler(request, reply, request.query),
  );
}

/** The accepted job an async retry refers to (its JobQueued may still be on its way to the read model). */
async function loadQueued(options: ConvertRouteOptions, jobId: string, keyId: string): Promise<{ jobId: string; expiresAt: string }> {
  let row = await loadJob(options.view.sql, jobId, keyId);
  if (!row && (await options.watch.waitForRow(jobId, 10_000))) row = await loadJob(options.view.sql, jobId, keyId);
  if (!row?.expires_at) throw new ApiError('render_failed', 'the job of this Idempotency-Key could not be read back; it is safe to retry');
  return { jobId, expiresAt: new Date(row.expires_at).toISOString() };
}
