import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { jobResource, type ViewContext } from '@folio/job-view';
import { ApiError } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';
import { JobCache, type JobReading } from '../jobs/job-cache.ts';
import { jobResponses } from '../schemas/responses.ts';
import { findJob } from '../jobs/find-job.ts';
import type { JobWatch } from '../jobs/watch.ts';

export async function jobRoutes(app: FastifyInstance, options: { view: ViewContext; watch: JobWatch }): Promise<void> {
  // Polling is the API's hottest path: most polls are answered from memory (see JobCache for when that is safe).
  const cache = new JobCache(options.watch);
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v2/jobs/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Read an asynchronous job',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: Type.Object(API_KEY_QUERY),
        response: jobResponses,
      },
      attachValidation: true,
      config: { rateLimit: 'poll' },
    },
    async (request, reply) => {
      if (request.validationError) throw ApiError.invalid('id', 'must be a job id (uuid)', 422);
      const key = request.apiKey!;
      const { id } = request.params;
      const cached = cache.get(id, key.id, key.plan);
      if (cached) return send(reply, cached);
      const ticket = cache.begin(id);
      const row = await findJob(options.view, options.watch, id, key.id);
      if (!row) throw new ApiError('job_not_found', 'no job with that id under this key');
      const body = await jobResource(options.view, row, key.plan);
      return send(reply, cache.keep(ticket, key.id, key.plan, body, row.expires_at!));
    },
  );
}

function send(reply: FastifyReply, reading: JobReading): FastifyReply {
  if (reading.retryAfter) reply.header('retry-after', reading.retryAfter);
  return reply.type('application/json; charset=utf-8').send(reading.json);
}
