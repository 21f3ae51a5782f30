import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import puppeteer, { type Browser } from 'puppeteer-core';
import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ERROR_CODES } from '@folio/events';
import { defaultExecutablePath } from '@folio/pdf';
import { SHARED_SCHEMAS } from '../apps/api/src/schemas/bodies.ts';
import { DOCUMENT_FILE } from '../packages/sdk/scripts/schema-source.ts';
import { Stack } from './support/stack.ts';

/**
 * The interface's own description: GET /v2/openapi.json (OpenAPI 3.1, generated from the routes' schemas) and the
 * browsable reference at /docs. Checked four ways: a validator says the document is OpenAPI 3.1; it names every
 * endpoint, parameter, response, header, security scheme and the callback of the interface; what it documents is
 * what the routes enforce (every constraint it states is refused when broken) and what they send (real answers
 * match the response schemas); and a real Chromium renders the reference with every operation on it, loading
 * nothing from anywhere but the service.
 */

const LEGACY = ['pdf', 'html', 'text'] as const;
const INTERFACE_OPERATIONS = [
  'POST /v2/convert',
  'GET /v2/convert',
  'GET /v2/jobs/{id}',
  ...LEGACY.flatMap((kind) => [`POST /v2/${kind}/create`, `GET /v2/${kind}/create`]),
].sort();
/** Folio's endpoints beyond the interface (a key's history): documented the same way, behind the same key. */
const HISTORY_OPERATIONS = ['GET /v2/jobs', 'GET /v2/jobs/{id}/events', 'GET /v2/usage', 'POST /v2/jobs/{id}/rerun', 'POST /v2/jobs/{id}/webhook/redeliver'];
const OPERATIONS = [...INTERFACE_OPERATIONS, ...HISTORY_OPERATIONS].sort();
const CONVERT_PARAMETERS = [
  'url', 'page_url', 'html', 'markdown', 'source_url', 'title', 'output', 'page_size', 'css_url', 'custom_css_url',
  'header_text', 'header_image_url', 'lang', 'dir', 'include_links', 'async', 'mode', 'webhook_url',
];
const LEGACY_PARAMETERS = ['page_url', 'html', 'output_type', 'css_url', 'header_image_url', 'header_text', 'page_size', 'title', 'lang', 'dir'];
const JSON_ERRORS = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };

type Schema = { type?: string; enum?: unknown[]; anyOf?: Schema[]; maxLength?: number; pattern?: string; format?: string; properties?: Record<string, Schema> };
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> }>;
  security?: Array<Record<string, string[]>>;
  callbacks?: Record<string, Record<string, { post: any }>>;
};

describe('the OpenAPI document and the reference', () => {
  let stack: Stack;
  let doc: any;
  let key: string;

  const operation = (id: string): Operation => {
    const [method, path] = id.split(' ');
    return doc.paths[path!][method!.toLowerCase()];
  };
  /** An operation's parameters by name, from its JSON body or its query string. */
  const parametersOf = (id: string): Record<string, Schema> => {
    const op = operation(id);
    if (op.requestBody) return op.requestBody.content['application/json']!.schema.properties!;
    return Object.fromEntries((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
  };

  beforeAll(async () => {
    // Some hundred refused requests in a minute: well within budgets scaled up.
    stack = Stack.shared('loopback-public');
    key = await stack.createKey('paid');
    const answer = await stack.request('GET', '/v2/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(() => stack?.stop());

  it('is a valid OpenAPI 3.1 document, version 2.0.0, served without a key', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: 'Folio', version: '2.0.0' });
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is the committed document the SDK is generated from (packages/sdk/openapi.json), but for its server', async () => {
    // The committed copy is built in-process with inert services (apps/api/src/openapi/standalone.ts); the running
    // API must serve the same document, its own address apart.
    const committed = JSON.parse(await readFile(DOCUMENT_FILE, 'utf8'));
    expect({ ...doc, servers: committed.servers }).toEqual(committed);
  });

  it('describes every endpoint of the interface, and nothing else', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(OPERATIONS);
    // health, readiness, file links and the documentation itself are not the interface
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/v2/') || p === '/v2/openapi.json')).toEqual([]);
  });

  it('answers a method a documented path does not declare with 405 and Allow, before asking for a key', async () => {
    for (const [path, ops] of Object.entries(doc.paths) as Array<[string, object]>) {
      const concrete = path.replace('{id}', '00000000-0000-4000-8000-000000000000');
      const declared = Object.keys(ops).map((m) => m.toUpperCase());
      for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'POST', 'GET'].filter((m) => !declared.includes(m))) {
        const answer = await stack.request(method, concrete);
        const where = `${method} ${path}`;
        const allowed = answer.headers.get('allow')!.split(', ');
        // HEAD is fastify's twin of a GET (answered without a body); the document lists the GET.
        expect(allowed.filter((m) => m !== 'HEAD'), where).toEqual(declared.sort());
        expect(answer.status, where).toBe(405);
        if (path.endsWith('/create')) {
          // The legacy endpoints answer in their own error shape.
          expect(answer.body, where).toMatchObject({ status: 'failed', type: 'catch-all' });
          continue;
        }
        expect(answer.headers.get('x-request-id'), where).toBeTruthy();
        expect(answer.body, where).toMatchObject({ status: 'failed', error: { code: 'invalid_parameters', retryable: false, errors: [{ parameter: 'method' }] } });
      }
    }
  });

  it('names every parameter, in every encoding', () => {
    for (const id of ['POST /v2/convert', 'GET /v2/convert']) expect(Object.keys(parametersOf(id))).toEqual(expect.arrayContaining(CONVERT_PARAMETERS));
    for (const kind of LEGACY) {
      for (const method of ['POST', 'GET']) expect(Object.keys(parametersOf(`${method} /v2/${kind}/create`))).toEqual(expect.arrayContaining(LEGACY_PARAMETERS));
    }
    for (const id of INTERFACE_OPERATIONS.filter((o) => o.startsWith('POST'))) {
      expect(Object.keys(operation(id).requestBody!.content).sort(), id).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    }
    const convert = parametersOf('POST /v2/convert');
    expect(convert.async!.type).toBe('boolean');
    expect(convert.include_links!.type).toBe('boolean');
    expect(enumOf(convert.output!).sort()).toEqual(['docx', 'html', 'json', 'markdown', 'pdf', 'text']);
    expect(enumOf(convert.mode!).sort()).toEqual(['async', 'sync']);
    expect(convert.webhook_url).toMatchObject({ format: 'uri', maxLength: 2048, pattern: '^https://' });
    expect(convert.title!.maxLength).toBe(500);
    expect(operation('POST /v2/convert').parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
    // The key is a security scheme, not a parameter.
    expect(operation('GET /v2/convert').parameters!.map((p) => p.name)).not.toContain('api_key');
    expect(Object.keys(convert)).not.toContain('api_key');
    expect(operation('GET /v2/jobs/{id}').parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ format: 'uuid' }) })]);
  });

  it('gives every response its body and headers', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    for (const id of ['POST /v2/convert', 'GET /v2/convert']) {
      const { responses } = operation(id);
      expect(Object.keys(responses).sort()).toEqual(['200', '202', '400', '401', '402', '413', '422', '429']);
      expect(responses['200']!.content!['application/json']!.schema).toMatchObject({ anyOf: ['ConvertFileResponse', 'ConvertContentResponse', 'ConvertJsonResponse'].map(ref) });
      expect(responses['202']!.content!['application/json']!.schema).toEqual(ref('ConvertJobAccepted'));
      expect(Object.keys(responses['202']!.headers!)).toEqual(['X-Request-Id', 'Location']);
      for (const status of ['400', '401', '402', '413', '422', '429']) expect(responses[status]!.content, `${id} ${status}`).toEqual(JSON_ERRORS);
      expect(Object.keys(responses['429']!.headers!)).toEqual(['X-Request-Id', 'Retry-After']);
    }
    const job = operation('GET /v2/jobs/{id}').responses;
    expect(Object.keys(job).sort()).toEqual(['200', '401', '404', '422', '429']);
    expect(job['200']!.content!['application/json']!.schema).toEqual(ref('Job'));
    expect(Object.keys(job['200']!.headers!)).toEqual(['X-Request-Id', 'Retry-After']);
    for (const status of ['401', '404', '422', '429']) expect(job[status]!.content).toEqual(JSON_ERRORS);
    const media = { pdf: 'application/pdf', html: 'text/html', text: 'text/plain' };
    for (const kind of LEGACY) {
      for (const method of ['POST', 'GET']) {
        const { responses } = operation(`${method} /v2/${kind}/create`);
        expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '404', '429']);
        expect(Object.keys(responses['200']!.content!)).toEqual(['application/json', media[kind]]);
        expect(responses['200']!.content!['application/json']!.schema).toEqual(ref('LegacyFileResponse'));
        expect(responses['400']!.content!['application/json']!.schema).toEqual(ref('LegacyErrorResponse'));
        expect(responses['429']!.content).toBeUndefined(); // the body is empty
        expect(Object.keys(responses['429']!.headers!)).toEqual(['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
      }
    }
    for (const id of OPERATIONS) {
      for (const [status, response] of Object.entries(operation(id).responses)) expect(response.headers, `${id} ${status}`).toHaveProperty('X-Request-Id');
    }
    // Beyond the interface: pages of named bodies, errors as the interface's.
    expect(operation('GET /v2/jobs').responses['200']!.content!['application/json']!.schema).toEqual(ref('JobPage'));
    expect(operation('GET /v2/jobs/{id}/events').responses['200']!.content!['application/json']!.schema).toEqual(ref('JobHistoryPage'));
    expect(operation('GET /v2/usage').responses['200']!.content!['application/json']!.schema).toEqual(ref('UsageLedgerPage'));
    expect(operation('POST /v2/jobs/{id}/rerun').responses['202']!.content!['application/json']!.schema).toEqual(ref('ConvertJobAccepted'));
    expect(operation('POST /v2/jobs/{id}/webhook/redeliver').responses['202']!.content!['application/json']!.schema).toEqual(ref('WebhookRedeliveryAccepted'));
    for (const id of HISTORY_OPERATIONS) expect(operation(id).responses['401']!.content, id).toEqual(JSON_ERRORS);
    expect(Object.keys(parametersOf('GET /v2/jobs')).sort()).toEqual(['created_after', 'created_before', 'cursor', 'limit', 'output', 'status']);
    const error = doc.components.schemas.ErrorObject;
    expect(error.required.sort()).toEqual(['code', 'message', 'retryable']);
    expect(Object.keys(error.properties).sort()).toEqual(['code', 'errors', 'message', 'retryable', 'upgrade_url']);
    expect(enumOf(error.properties.code).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(doc.components.schemas.ErrorResponse.required.sort()).toEqual(['error', 'status']);
  });

  it('protects every operation with the four security schemes', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      apiKeyQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'api_key' }),
      basic: expect.objectContaining({ type: 'http', scheme: 'basic' }),
    });
    for (const id of OPERATIONS) expect(operation(id).security, id).toEqual([{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }, { basic: [] }]);
  });

  it('announces the signed job-finished callback on the operations that take a webhook_url', () => {
    for (const [id, address] of [
      ['POST /v2/convert', '{$request.body#/webhook_url}'],
      ['GET /v2/convert', '{$request.query.webhook_url}'],
    ] as const) {
      const callback = operation(id).callbacks!.jobFinished![address]!.post;
      expect(callback.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Job' });
      const headers = Object.fromEntries(callback.parameters.map((p: Parameter) => [p.name, p]));
      expect(headers['X-Folio-Signature']).toMatchObject({ in: 'header', required: true, schema: { pattern: '^sha256=[0-9a-f]{64}$' } });
      expect(headers['X-Folio-Job-Id']).toMatchObject({ in: 'header', required: true, schema: { format: 'uuid' } });
      expect(Object.keys(callback.responses)).toEqual(['2XX']);
    }
    for (const id of OPERATIONS.filter((o) => !o.endsWith('/v2/convert'))) expect(operation(id).callbacks, id).toBeUndefined();
  });

  it('documents the constraints the routes enforce: each one broken is refused, naming the parameter', async () => {
    const refusals: string[] = [];
    const accepted: string[] = [];
    for (const id of INTERFACE_OPERATIONS.filter((o) => o !== 'GET /v2/jobs/{id}')) {
      const [method, path] = id.split(' ') as [string, string];
      const legacy = path.endsWith('/create');
      const valid: Record<string, unknown> = legacy ? { html: '<p>A paragraph.</p>' } : { markdown: 'A paragraph.', output: 'text' };
      const documented = parametersOf(id);
      for (const [name, schema] of Object.entries(documented)) {
        for (const [rule, value] of violations(schema)) {
          const params = { ...valid, [name]: value };
          const answer =
            method === 'POST'
              ? await stack.request('POST', path, { key, json: params })
              : await stack.request('GET', `${path}?${query(params)}`, { key });
          const named = legacy
            ? answer.body?.type === 'parameters-validation' && new RegExp(`\\b${name}\\b`).test(answer.body.message)
            : answer.body?.error?.code === 'invalid_parameters' && answer.body.error.errors.some((e: { parameter: string }) => e.parameter === name);
          if (answer.status === 400 && named) accepted.push(`${id} ${name} ${rule}`);
          else refusals.push(`${id} ${name} ${rule}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
    }
    // Every operation had constraints to break (the document is not empty of them), and every one held.
    expect(refusals).toEqual([]);
    for (const id of INTERFACE_OPERATIONS.filter((o) => o !== 'GET /v2/jobs/{id}')) expect(accepted.filter((a) => a.startsWith(`${id} `)).length, id).toBeGreaterThan(10);
    expect(accepted).toEqual(expect.arrayContaining(['POST /v2/convert async boolean', 'GET /v2/convert include_links boolean', 'POST /v2/pdf/create dir enum']));
    // The path parameter documented as a uuid.
    const notAnId = await stack.request('GET', '/v2/jobs/not-a-uuid', { key });
    expect(notAnId.status).toBe(422);
    expect(notAnId.body.error.errors[0].parameter).toBe('id');
  });

  it('documents what the API sends: real answers match the response schemas', async () => {
    registerFormats();
    const conforms = (schema: string, body: unknown) => {
      const errors = [...Value.Errors(Type.Ref(schema), SHARED_SCHEMAS, body)].map((e) => `${e.path} ${e.message}`);
      expect(errors, `${schema}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
    };
    const withRequestId = (answer: { headers: Headers }) => expect(answer.headers.get('x-request-id')).toMatch(/\S/);

    for (const output of ['text', 'markdown', 'html']) {
      const sync = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# Title\n\nA paragraph.', output } });
      expect(sync.status).toBe(200);
      conforms('ConvertContentResponse', sync.body);
      withRequestId(sync);
    }
    const json = await stack.request('GET', `/v2/convert?${query({ markdown: '# Title\n\nA paragraph.', output: 'json' })}`, { key });
    expect(json.status).toBe(200);
    conforms('ConvertJsonResponse', json.body);
    const pdf = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# Title\n\nA paragraph.', output: 'pdf' } });
    expect(pdf.status).toBe(200);
    conforms('ConvertFileResponse', pdf.body);

    const accepted = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# Later', output: 'docx', async: true } });
    expect(accepted.status).toBe(202);
    conforms('ConvertJobAccepted', accepted.body);
    expect(accepted.headers.get('location')).toBe(accepted.body.status_url);
    const polled = await stack.request('GET', `/v2/jobs/${accepted.body.job_id}`, { key });
    conforms('Job', polled.body);
    if (polled.body.status === 'queued' || polled.body.status === 'processing') expect(Number(polled.headers.get('retry-after'))).toBeGreaterThan(0);
    conforms('Job', await stack.waitForJob(key, accepted.body.job_id));

    const failed = await stack.request('POST', '/v2/convert', { key, json: { url: 'http://127.0.0.1:1/', output: 'text', async: true } });
    conforms('Job', await stack.waitForJob(key, failed.body.job_id));

    const refusals = [
      await stack.request('POST', '/v2/convert', { key, json: { output: 'text' } }),
      await stack.request('POST', '/v2/convert', { json: { markdown: 'x' } }),
      await stack.request('GET', '/v2/jobs/0193a000-0000-7000-8000-000000000000', { key }),
      await stack.request('GET', '/v2/jobs/nope', { key }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 401, 404, 422]);
    for (const refusal of refusals) {
      conforms('ErrorResponse', refusal.body);
      withRequestId(refusal);
    }

    const legacy = await stack.request('POST', '/v2/text/create', { key, json: { html: '<p>A paragraph.</p>' } });
    expect(legacy.status).toBe(200);
    conforms('LegacyFileResponse', legacy.body);
    expect(legacy.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const legacyRefusal = await stack.request('GET', '/v2/pdf/create', { key });
    expect(legacyRefusal.status).toBe(400);
    conforms('LegacyErrorResponse', legacyRefusal.body);

    // ...and those are the schemas the document shows.
    for (const schema of SHARED_SCHEMAS) expect(unordered(doc.components.schemas[schema.$id!]), schema.$id).toEqual(unordered(asDocumented(schema)));
  });

  it('renders the reference at /docs in a real Chromium, with every operation, from the service alone', async () => {
    const executablePath = defaultExecutablePath();
    const browser: Browser = await puppeteer.launch({
      executablePath,
      headless: executablePath.includes('headless-shell') ? 'shell' : true,
      args: typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : [],
    });
    try {
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(`${stack.url}/`) && !/^(data|blob):/.test(request.url())) elsewhere.push(request.url());
      });
      const failures: string[] = [];
      page.on('requestfailed', (request) => failures.push(request.url()));
      const response = await page.goto(`${stack.url}/docs`, { waitUntil: 'networkidle0' });
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock', { timeout: 60_000 });
      const listed = await page.$$eval('.opblock', (blocks) =>
        blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.textContent?.replace(/\u200b/g, '').trim()}`),
      );
      expect(listed.sort()).toEqual(OPERATIONS);
      // Opening an operation shows its parameters, as the document gives them.
      await page.click('#operations-convert-get_v2_convert .opblock-summary');
      await page.waitForFunction(() => document.querySelector('#operations-convert-get_v2_convert')?.textContent?.includes('webhook_url'), { timeout: 30_000 });
      // ...and the callback it announces.
      await page.click('#operations-convert-post_v2_convert .opblock-summary');
      await page.waitForFunction(() => document.querySelector('#operations-convert-post_v2_convert')?.textContent?.includes('Callbacks'), { timeout: 30_000 });
      expect(elsewhere).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/** The values an enum allows, however the schema spells it (enum, or anyOf of single values). */
function enumOf(schema: Schema): unknown[] {
  return schema.enum ?? (schema.anyOf ?? []).flatMap((s) => s.enum ?? []);
}

/** For each constraint a parameter's documented schema states, a value that breaks only that constraint. */
function violations(schema: Schema): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (schema.type === 'boolean') out.push(['boolean', [true, false]]);
  if (enumOf(schema).length > 0) out.push(['enum', 'none-of-these']);
  // Longer limits (markdown's million characters) are left to the tests of limits.
  if (schema.maxLength !== undefined && schema.maxLength <= 10_000) {
    out.push(['maxLength', schema.format === 'uri' ? `https://example.com/${'a'.repeat(schema.maxLength)}` : 'a'.repeat(schema.maxLength + 1)]);
  }
  if (schema.pattern) {
    const broken = ['http://example.com/page', 'not valid!'].find((candidate) => !new RegExp(schema.pattern!).test(candidate));
    out.push(['pattern', broken]);
  }
  if (schema.format === 'uri') out.push(['format', 'not an address']);
  return out;
}

/** Parameters as a query string: an array is the name sent once per value. */
function query(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  return search.toString();
}

/** A shared schema as @fastify/swagger puts it in the document: references made local, constants as enums, no $id. */
function asDocumented(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (key === '$id') return undefined;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return `#/components/schemas/${value}`;
    if (value && typeof value === 'object' && 'const' in value) {
      const { const: constant, ...rest } = value;
      return { ...rest, enum: [constant] };
    }
    return value;
  });
}

/** A schema with its `required` lists sorted (their order means nothing). */
function unordered(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === 'required' && Array.isArray(value) ? [...value].sort() : value));
}

function registerFormats(): void {
  if (!FormatRegistry.Has('uri')) {
    FormatRegistry.Set('uri', (value) => {
      try {
        return Boolean(new URL(value).protocol);
      } catch {
        return false;
      }
    });
  }
  if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value));
  if (!FormatRegistry.Has('date-time')) {
    FormatRegistry.Set('date-time', (value) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)));
  }
}
