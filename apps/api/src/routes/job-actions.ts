import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { webhookRedeliveryRequested } from '@folio/events';
import { ApiError } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';
import { admitRequest } from '../jobs/admit.ts';
import { replyQueued } from '../jobs/accepted.ts';
import { findJob } from '../jobs/find-job.ts';
import { requestOf } from '../jobs/rerun.ts';
import { queueJob } from '../jobs/submit.ts';
import { redeliverResponses, rerunResponses } from '../schemas/history.ts';
import type { ConvertRouteOptions } from './convert.ts';

/** An action on one job: the job id in the path, no body, the key as anywhere else. */
const actionSchema = <R>(summary: string, description: string, response: R) => ({
  tags: ['history'],
  summary,
  description,
  params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
  querystring: Type.Object(API_KEY_QUERY),
  response,
});

/**
 * What a key's owner can do to a job of theirs beyond the interface: run it again, and have its callback sent once
 * more. Both only write an event; what follows happens the way it always does (the renderer runs the new job, the
 * dispatcher sends the callback), so the log stays the one account of it.
 */
export async function jobActionRoutes(app: FastifyInstance, options: ConvertRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const notFound = () => new ApiError('job_not_found', 'no job with that id under this key');

  typed.post(
    '/v2/jobs/:id/rerun',
    {
      schema: actionSchema(
        'Run a job again',
        'A new background job with the original’s request (input, output, options, webhook_url), linked to it: its JobQueued names ' +
          'the original in rerun_of, and the original’s events show a rerun entry. Admitted and metered as any POST /v2/convert: ' +
          'it counts as a document only when it succeeds.',
        rerunResponses,
      ),
      config: { rateLimit: 'convert' },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      const { id } = request.params;
      if (!(await findJob(options.view, options.watch, id, key.id))) throw notFound();
      const convert = await requestOf(options.view.sql, options.submit.store, id);
      if (!convert) throw notFound();
      // The original's request is admitted again: what it would fetch may have turned private since.
      await admitRequest(convert, options.network);
      const event = await queueJob(options.submit, convert, { key, requestId: request.id, rerunOf: id });
      return replyQueued(reply, options.publicUrl, { jobId: event.job_id, expiresAt: event.expires_at });
    },
  );

  typed.post(
    '/v2/jobs/:id/webhook/redeliver',
    {
      schema: actionSchema(
        'Send a job’s callback once more',
        'For a finished job started with a webhook_url whose callback has been delivered or given up on: the dispatcher sends it ' +
          'once more (the same body, signed afresh, no retries) and records the attempt in the job’s events.',
        redeliverResponses,
      ),
      config: { rateLimit: 'poll' },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      const { id } = request.params;
      const job = await findJob(options.view, options.watch, id, key.id);
      if (!job) throw notFound();
      if (!job.webhook_url) throw ApiError.invalid('id', 'this job was started without a webhook_url: it has no callback to send', 422);
      if (job.status !== 'succeeded' && job.status !== 'failed') {
        throw ApiError.invalid('id', 'this job has not finished: its callback is sent when it does', 422);
      }
      const [schedule] = await options.view.sql<Array<{ state: string }>>`select state from delivery_schedule where job_id = ${id}`;
      if (!schedule || schedule.state === 'pending') {
        throw ApiError.invalid('id', 'this job’s callback is still being delivered; ask again once its attempts have ended', 422);
      }
      const event = webhookRedeliveryRequested(id, request.id, 'api');
      await options.submit.publisher.publish(event);
      return reply.code(202).send({ status: 'queued', job_id: id, event_id: event.event_id, events_url: `${options.publicUrl}/v2/jobs/${id}/events` });
    },
  );
}
