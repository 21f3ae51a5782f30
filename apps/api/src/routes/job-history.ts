import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { OUTPUTS } from '@folio/events';
import type { ViewContext } from '@folio/job-view';
import { periodOf } from '@folio/metering';
import type { JobStatus } from '@folio/projections';
import { ApiError } from '../errors.ts';
import { API_KEY_QUERY } from '../plugins/auth.ts';
import { findJob } from '../jobs/find-job.ts';
import type { JobWatch } from '../jobs/watch.ts';
import { jobHistoryPage } from '../history/events.ts';
import { jobListPage } from '../history/job-list.ts';
import { PAGE_LIMIT, PageParams } from '../history/pages.ts';
import { usageLedgerPage } from '../history/usage-ledger.ts';
import { historyResponses, jobListResponses, usageLedgerResponses } from '../schemas/history.ts';

const JOB_STATUSES = ['queued', 'processing', 'succeeded', 'failed'] as const satisfies readonly JobStatus[];

/** One of a few words, as a JSON Schema enum: a wrong value is one problem named once (a union would name it per branch). */
const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

const JobIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * What a key can read of its own past beyond the interface: a job's history as the log recorded it, its jobs, and the
 * documents that counted. Same rules as GET /v2/jobs/{id}: the key's own jobs only (another key's is job_not_found),
 * the polling budget, the interface's error object.
 */
export async function jobHistoryRoutes(app: FastifyInstance, options: { view: ViewContext; watch: JobWatch }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/v2/jobs/:id/events',
    {
      schema: {
        tags: ['history'],
        summary: 'Read a job’s history',
        description:
          'Every event of the job in order: queued, each processing attempt with its renderer, succeeded or failed, an outcome ' +
          'that came too late (effective false), every callback attempt with its status and duration, redelivery requests and ' +
          'reruns; each with its time and the Kafka topic, partition and offset it was read from.',
        params: JobIdParams,
        querystring: Type.Object({ ...PageParams, ...API_KEY_QUERY }),
        response: historyResponses,
      },
      config: { rateLimit: 'poll' },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      const { id } = request.params;
      if (!(await findJob(options.view, options.watch, id, key.id))) throw new ApiError('job_not_found', 'no job with that id under this key');
      const page = await jobHistoryPage(options.view.sql, { jobId: id, keyId: key.id }, pageParams(request.query));
      return reply.send({ job_id: id, data: page.items, next_cursor: page.nextCursor });
    },
  );

  typed.get(
    '/v2/jobs',
    {
      schema: {
        tags: ['history'],
        summary: 'List the key’s jobs',
        description: 'The key’s jobs that are still readable (48 hours), newest first, each exactly as GET /v2/jobs/{id} returns it.',
        querystring: Type.Object({
          status: Type.Optional(oneOf(JOB_STATUSES)),
          output: Type.Optional(oneOf(OUTPUTS)),
          created_after: Type.Optional(Type.String({ format: 'date-time', description: 'jobs created at or after this instant (ISO 8601 with a time zone)' })),
          created_before: Type.Optional(Type.String({ format: 'date-time', description: 'jobs created before this instant (ISO 8601 with a time zone)' })),
          ...PageParams,
          ...API_KEY_QUERY,
        }),
        response: jobListResponses,
      },
      config: { rateLimit: 'poll' },
    },
    async (request, reply) => {
      const { status, output, created_after, created_before } = request.query;
      const filter = { status, output, createdAfter: created_after, createdBefore: created_before };
      const page = await jobListPage(options.view, request.apiKey!, filter, pageParams(request.query));
      return reply.type('application/json; charset=utf-8').send(page.json);
    },
  );

  typed.get(
    '/v2/usage',
    {
      schema: {
        tags: ['history'],
        summary: 'List the documents that counted in a month',
        description: 'The usage ledger: every document counted toward the plan in a calendar month (UTC), in the order they were counted.',
        querystring: Type.Object({
          period: Type.Optional(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'the month, YYYY-MM (UTC); the current one when left out' })),
          ...PageParams,
          ...API_KEY_QUERY,
        }),
        response: usageLedgerResponses,
      },
      config: { rateLimit: 'poll' },
    },
    async (request, reply) => {
      const period = request.query.period ?? periodOf(new Date());
      return reply.send(await usageLedgerPage(options.view.sql, request.apiKey!, period, pageParams(request.query)));
    },
  );
}

function pageParams(query: { limit?: number; cursor?: string }): { limit: number; cursor?: string } {
  return { limit: query.limit ?? PAGE_LIMIT.default, cursor: query.cursor };
}
