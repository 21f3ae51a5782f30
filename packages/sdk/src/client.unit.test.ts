import { describe, expect, it } from 'vitest';
import { Folio } from './client.ts';
import { FolioError } from './errors.ts';
import { failed, fakeApi, fileResult, JOB_ID, type Reply } from './test-support/fake-api.ts';

const folioWith = (replies: Reply[], options: { maxRetries?: number; timeoutMs?: number } = {}) => {
  const api = fakeApi(replies);
  const folio = new Folio({ apiKey: 'k_test', baseUrl: 'https://folio.example/', fetch: api.fetch, backoff: { baseDelayMs: 1, maxDelayMs: 2 }, ...options });
  return { folio, requests: api.requests };
};

const thrown = async (promise: Promise<unknown>): Promise<FolioError> => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(FolioError);
  return error as FolioError;
};

describe('Folio.convert', () => {
  it('posts the parameters as JSON with the key as a bearer token, and answers with the result', async () => {
    const { folio, requests } = folioWith([{ status: 200, body: fileResult }]);
    const result = await folio.convert({ markdown: '# Hello', output: 'pdf' });
    expect(result.file_url).toBe(fileResult.file_url);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('https://folio.example/v2/convert');
    expect(request!.headers.get('authorization')).toBe('Bearer k_test');
    expect(await request!.json()).toEqual({ markdown: '# Hello', output: 'pdf' });
  });

  it('retries a lost answer, a 429 and a 5xx with one Idempotency-Key for every attempt, a new one for the next call', async () => {
    const { folio, requests } = folioWith(
      [
        new TypeError('fetch failed'),
        { status: 429, body: failed('rate_limited', true), headers: { 'retry-after': '0' } },
        { status: 503, body: 'unavailable' },
        { status: 200, body: fileResult },
        { status: 200, body: fileResult },
      ],
      { maxRetries: 3 },
    );
    await folio.convert({ markdown: 'x' });
    await folio.convert({ markdown: 'x' });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(0, 4)).toEqual([keys[0], keys[0], keys[0], keys[0]]);
    expect(keys[4]).not.toBe(keys[0]);
    // Every attempt sent the whole body again.
    for (const request of requests) expect(await request.json()).toEqual({ markdown: 'x' });
  });

  it('retries a conversion that ran and failed as a new conversion, under a key derived from the call’s', async () => {
    const { folio, requests } = folioWith([
      { status: 422, body: failed('fetch_failed', true) },
      new TypeError('fetch failed'),
      { status: 422, body: failed('render_failed', true) },
      { status: 200, body: fileResult },
    ], { maxRetries: 3 });
    await folio.convert({ url: 'https://example.com/a' }, { idempotencyKey: 'order-42' });
    // The lost answer keeps its key (that conversion may have run); each failed conversion moves to the next.
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['order-42', 'order-42.2', 'order-42.2', 'order-42.3']);
  });

  it('waits Retry-After seconds after a 429 before trying again', async () => {
    const { folio, requests } = folioWith([
      { status: 429, body: failed('rate_limited', true), headers: { 'retry-after': '1' } },
      { status: 200, body: fileResult },
    ]);
    const started = Date.now();
    await folio.convert({ markdown: 'x' });
    expect(requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxRetries with the last error, typed', async () => {
    const { folio, requests } = folioWith(
      [
        { status: 422, body: failed('fetch_failed', true), headers: { 'x-request-id': 'r1' } },
        { status: 422, body: failed('fetch_failed', true), headers: { 'x-request-id': 'r2' } },
      ],
      { maxRetries: 1 },
    );
    const error = await thrown(folio.convert({ url: 'https://example.com/a' }));
    expect(requests).toHaveLength(2);
    expect(error).toMatchObject({ code: 'fetch_failed', status: 422, retryable: true, requestId: 'r2' });
  });

  it('never retries a refusal, and maps its details', async () => {
    const { folio, requests } = folioWith([
      { status: 400, body: failed('invalid_parameters', false, { errors: [{ parameter: 'markdown', message: 'too long' }] }), headers: { 'x-request-id': 'abc' } },
    ]);
    const error = await thrown(folio.convert({ markdown: 'x' }));
    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'invalid_parameters', status: 400, retryable: false, requestId: 'abc', message: 'invalid_parameters happened' });
    expect(error.errors).toEqual([{ parameter: 'markdown', message: 'too long' }]);

    const quota = await thrown(folioWith([{ status: 402, body: failed('quota_exceeded', false, { upgrade_url: 'https://folio.example/up' }) }]).folio.convert({ markdown: 'x' }));
    expect(quota).toMatchObject({ code: 'quota_exceeded', status: 402, upgradeUrl: 'https://folio.example/up' });
  });

  it('types answers that are not the interface’s error object: an empty 429, a proxy’s 502', async () => {
    const { folio } = folioWith([{ status: 429 }, { status: 502, body: '<html>bad gateway</html>' }, { status: 503, body: 'down' }], { maxRetries: 2 });
    const error = await thrown(folio.convert({ markdown: 'x' }));
    expect(error).toMatchObject({ code: 'unexpected_response', status: 503, retryable: true });
    const empty = await thrown(folioWith([{ status: 429 }], { maxRetries: 0 }).folio.convert({ markdown: 'x' }));
    expect(empty).toMatchObject({ code: 'rate_limited', status: 429, retryable: true });
  });

  it('turns a connection that keeps failing into connection_failed, and a slow one into timeout', async () => {
    const down = await thrown(folioWith([new TypeError('fetch failed')], { maxRetries: 0 }).folio.convert({ markdown: 'x' }));
    expect(down).toMatchObject({ code: 'connection_failed', status: 0, retryable: true });

    const hanging = (request: Request) =>
      new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    const folio = new Folio({ apiKey: 'k', baseUrl: 'https://folio.example', fetch: hanging, timeoutMs: 20, maxRetries: 1, backoff: { baseDelayMs: 1 } });
    expect(await thrown(folio.convert({ markdown: 'x' }))).toMatchObject({ code: 'timeout', status: 0 });
  });

  it('stops at once when the caller aborts, with the caller’s reason and no retry', async () => {
    const controller = new AbortController();
    let calls = 0;
    const fetch = (request: Request) => {
      calls++;
      setTimeout(() => controller.abort(new Error('user gave up')), 5);
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    };
    const folio = new Folio({ apiKey: 'k', baseUrl: 'https://folio.example', fetch });
    await expect(folio.convert({ markdown: 'x' }, { signal: controller.signal })).rejects.toThrow('user gave up');
    expect(calls).toBe(1);
  });
});

describe('Folio.convertAsync', () => {
  it('asks for a background job and answers with the accepted job', async () => {
    const accepted = { status: 'queued', job_id: JOB_ID, status_url: `https://folio.example/v2/jobs/${JOB_ID}`, expires_at: '2026-01-03T00:00:00.000Z' };
    const { folio, requests } = folioWith([{ status: 202, body: accepted }]);
    expect(await folio.convertAsync({ markdown: 'x', output: 'docx', webhook_url: 'https://hooks.example/folio' })).toEqual(accepted);
    expect(await requests[0]!.json()).toEqual({ markdown: 'x', output: 'docx', webhook_url: 'https://hooks.example/folio', async: true });
    expect(requests[0]!.headers.get('idempotency-key')).toBeTruthy();
  });

  it('uses the caller’s Idempotency-Key when given', async () => {
    const { folio, requests } = folioWith([{ status: 200, body: fileResult }]);
    await folio.convert({ markdown: 'x' }, { idempotencyKey: 'order-42' });
    expect(requests[0]!.headers.get('idempotency-key')).toBe('order-42');
  });
});
