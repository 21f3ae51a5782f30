import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import puppeteer, { type Browser } from 'puppeteer-core';
import { Stack } from './support/stack.ts';

/** The interface's own description: GET /v2/openapi.json (OpenAPI 3.1) and the browsable reference at /docs. */
describe('the OpenAPI document and the reference', () => {
  let stack: Stack;
  let doc: any;

  beforeAll(async () => {
    stack = await Stack.start({ renderers: 1 });
    const answer = await stack.request('GET', '/v2/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(() => stack?.stop());

  it('is a valid OpenAPI 3.1 document, served without a key', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: 'Folio', version: '2.0.0' });
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every endpoint of the interface, and nothing else', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        'GET /v2/convert',
        'POST /v2/convert',
        'GET /v2/jobs/{id}',
        ...['pdf', 'html', 'text'].flatMap((k) => [`GET /v2/${k}/create`, `POST /v2/${k}/create`]),
      ].sort(),
    );
  });

  it('gives parameters, responses, headers, security and the callback', () => {
    const post = doc.paths['/v2/convert'].post;
    const body = post.requestBody.content['application/json'].schema;
    expect(body.properties.markdown.type).toBe('string');
    expect(body.properties.async.type).toBe('boolean');
    expect(body.properties.mode.anyOf.flatMap((m: { enum: string[] }) => m.enum).sort()).toEqual(['async', 'sync']);
    const get = doc.paths['/v2/convert'].get;
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['url', 'html', 'markdown', 'output', 'webhook_url']));
    expect(Object.keys(post.responses).sort()).toEqual(['200', '202', '400', '401', '402', '413', '422', '429']);
    expect(post.responses['202'].headers).toHaveProperty('Location');
    expect(post.responses['429'].headers).toHaveProperty('Retry-After');
    for (const response of Object.values(post.responses) as Array<{ headers: object }>) expect(response.headers).toHaveProperty('X-Request-Id');
    const job = doc.paths['/v2/jobs/{id}'].get;
    expect(job.responses['200'].headers).toHaveProperty('Retry-After');
    expect(job.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
    const legacy = doc.paths['/v2/pdf/create'].post;
    expect(Object.keys(legacy.responses['200'].content)).toEqual(expect.arrayContaining(['application/json', 'application/pdf']));
    expect(Object.keys(legacy.responses['429'].headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'apiKeyQuery', 'basic', 'bearer']);
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(post.security).toHaveLength(4);
    const callback = post.callbacks.jobFinished['{$request.body#/webhook_url}'].post;
    expect(callback.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Folio-Signature', 'X-Folio-Job-Id']);
    expect(callback.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/Job');
    expect(JSON.stringify(doc.components.schemas.ErrorObject.properties.code)).toContain('quota_exceeded');
  });

  it('documents the schemas the routes validate with', async () => {
    const key = await stack.createKey('paid');
    // Documented as boolean, refused as an array; documented as at most 500 characters, refused at 501.
    expect(doc.paths['/v2/convert'].post.requestBody.content['application/json'].schema.properties.title.maxLength).toBe(500);
    const asArray = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'x', output: 'text', async: ['true'] } });
    expect(asArray.status).toBe(400);
    expect(asArray.body.error.errors[0].parameter).toBe('async');
    const tooLong = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'x', output: 'text', title: 't'.repeat(501) } });
    expect(tooLong.body.error.errors[0].parameter).toBe('title');
  });

  it('renders the reference at /docs in a real browser, listing the endpoints', async () => {
    const browser: Browser = await puppeteer.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
      args: ['--no-sandbox'],
    });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (r) => {
        if (/^https?:/.test(r.url()) && !r.url().startsWith(stack.url)) outside.push(r.url());
      });
      const response = await page.goto(`${stack.url}/docs`, { waitUntil: 'networkidle0' });
      expect(response?.status()).toBe(200);
      await page.waitForFunction(() => document.body.innerText.includes('/v2/jobs/{id}'), { timeout: 30_000 });
      const text = await page.evaluate(() => document.body.innerText);
      for (const path of ['/v2/convert', '/v2/jobs/{id}', '/v2/pdf/create', '/v2/html/create', '/v2/text/create']) expect(text).toContain(path);
      // Everything the page needs comes from the service itself.
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
