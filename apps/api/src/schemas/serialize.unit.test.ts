import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SHARED_SCHEMAS } from './bodies.ts';
import { convertResponses, jobResponses, legacyResponses } from './responses.ts';
import { interfaceDocs } from '../openapi/document.ts';

/**
 * Bodies that a schema-driven serializer would change: fields the schemas do not name (a newer field, a nested
 * extra), values of another type than declared, a union member that matches none exactly. What is sent must be
 * JSON.stringify of what the handler built, whatever the route's response schema says.
 */
const job = {
  status: 'succeeded',
  job_id: '01932f4e-7a1b-7c3d-8e9f-0a1b2c3d4e5f',
  created_at: '2026-11-23T03:00:00.000Z',
  finished_at: '2026-11-23T03:00:01.000Z',
  result: {
    status: 'success',
    output: 'text',
    content: 'Hello',
    document: { title: 'Hello', word_count: '1', lang: 'en' },
    usage: { used_this_period: 1, included: 100, plan: 'free', resets_at: '2026-12-01T00:00:00Z' },
    trace: { attempt: 2 },
  },
  not_in_any_schema: [1, null, { deep: true }],
};
const failure = {
  status: 'failed',
  error: { code: 'invalid_parameters', message: 'async: must be boolean', retryable: false, errors: [{ parameter: 'async', message: 'x', hint: 1 }] },
  extra: 'kept',
};
const accepted = { status: 'queued', job_id: job.job_id, status_url: 'http://127.0.0.1/v2/jobs/x', expires_at: 12345, priority: 'low' };

/** Routes with the interface's response schemas, set up as buildApp does (interfaceDocs first), or with fastify's defaults. */
async function appWith(setup: 'as the app does' | 'fastify defaults'): Promise<FastifyInstance> {
  const app = Fastify();
  if (setup === 'as the app does') await interfaceDocs(app, { publicUrl: 'http://127.0.0.1' });
  else for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.get('/job', { schema: { response: jobResponses } }, async () => job);
  app.get('/convert-failure', { schema: { response: convertResponses } }, async (_request, reply) => reply.code(400).send(failure));
  app.get('/convert-success', { schema: { response: convertResponses } }, async () => job.result);
  app.get('/accepted', { schema: { response: convertResponses } }, async (_request, reply) => reply.code(202).send(accepted));
  app.get('/legacy', { schema: { response: legacyResponses('pdf') } }, async () => ({ status: 'success', file_url: 'http://x/y', more: 1 }));
  await app.ready();
  return app;
}

const CASES: Array<[string, unknown]> = [
  ['/job', job],
  ['/convert-failure', failure],
  ['/convert-success', job.result],
  ['/accepted', accepted],
  ['/legacy', { status: 'success', file_url: 'http://x/y', more: 1 }],
];

describe('response schemas describe, they never reshape', () => {
  it('sends every body as JSON.stringify of what the handler built', async () => {
    const app = await appWith('as the app does');
    for (const [path, body] of CASES) {
      const response = await app.inject({ method: 'GET', url: path });
      expect(response.payload, path).toBe(JSON.stringify(body));
    }
    await app.close();
  });

  it('would reshape them with fastify’s default serializer (which is why the app sets its own)', async () => {
    const app = await appWith('fastify defaults');
    const changed: string[] = [];
    for (const [path, body] of CASES) {
      const response = await app.inject({ method: 'GET', url: path });
      if (response.payload !== JSON.stringify(body)) changed.push(path);
    }
    expect(changed).toEqual(CASES.map(([path]) => path));
    await app.close();
  });
});
