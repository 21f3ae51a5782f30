import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ERROR_CODES, isErrorCode } from '@folio/events';
import { Stack } from './support/stack.ts';

/**
 * Garbage at every endpoint never yields a 5xx: whatever arrives — malformed JSON, wrong types, arrays for strings,
 * nulls, huge and odd unicode, NULs and lone surrogates, bogus content types — the answer is a success or a
 * well-formed error object whose status and `retryable` are the ones the interface's table gives its code.
 */
const UNIFIED = [
  ['POST', '/v2/convert'],
  ['GET', '/v2/convert'],
  ['GET', '/v2/jobs/{id}'],
] as const;
const LEGACY = ['pdf', 'html', 'text'].flatMap((kind) => [
  ['POST', `/v2/${kind}/create`],
  ['GET', `/v2/${kind}/create`],
]) as Array<readonly ['POST' | 'GET', string]>;
const LEGACY_TYPES = ['parameters-validation', 'banned-domain', 'failed-parsed', 'fetch-error', 'high-load', 'invalid-file-ext', 'large-page', 'security-platform', 'timeout', 'catch-all'];
const NAMES = ['url', 'page_url', 'html', 'markdown', 'output', 'async', 'mode', 'title', 'page_size', 'include_links', 'webhook_url', 'css_url', 'lang', 'dir', 'output_type', 'header_text', 'api_key', 'source_url'];

/** Text as users and attackers send it: any code point, lone surrogates and NULs included, sometimes long. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', '\ud800', 'true', 'false', 'async', 'pdf', 'TEXT', 'a4', 'rtl', 'inline', '# title', '<p>x</p>', 'http://127.0.0.1/'),
  fc.string({ unit: 'grapheme', minLength: 1000, maxLength: 5000 }),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: text },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), text, { maxKeys: 3 }),
);
const params = fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NAMES) }, fc.string({ unit: 'binary', maxLength: 8 })), value, { maxKeys: 6 });
const textParams = fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NAMES) }, fc.string({ maxLength: 8 })), text, { maxKeys: 6 });

type Body = { contentType?: string; body?: string | FormData };
const body: fc.Arbitrary<Body> = fc.oneof(
  params.map((p) => ({ contentType: 'application/json', body: JSON.stringify(p) })),
  fc.jsonValue().map((v) => ({ contentType: 'application/json', body: JSON.stringify(v) })),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => ({ contentType: 'application/json', body: s })),
  textParams.map((p) => ({ contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(p as Record<string, string>).toString() })),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => ({ contentType: 'application/x-www-form-urlencoded', body: s })),
  textParams.map((p) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(p)) data.append(k, v);
    return { body: data };
  }),
  fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=latin1', '*/*', 'garbage', ''), fc.string({ maxLength: 40 })).map(([contentType, b]) => ({ contentType, body: b })),
  fc.constant({}),
);
/** Headers beside the key: odd schemes, garbage ids, encodings the body is not in, types nobody asked for. */
const oddHeaders = fc.dictionary(
  fc.constantFrom('x-api-key', 'x-request-id', 'idempotency-key', 'content-encoding', 'accept', 'accept-charset', 'x-forwarded-for', 'origin', 'range', 'if-none-match'),
  fc.oneof(
    fc.constantFrom('gzip', 'br', 'deflate, gzip', 'identity', '*/*', 'application/pdf', 'bytes=0-1', 'null', '../../etc/passwd', '\u00ff\u00fe'),
    // Latin-1 text, as HTTP carries it; fetch sends no DEL, no empty value and none with spaces around it.
    fc
      .string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 })
      .map((v) => v.trim())
      .filter((v) => v.length > 0),
  ),
  { maxKeys: 3 },
);
/** The endpoint's own method most of the time, otherwise one the interface does not list. */
const method = (own: 'GET' | 'POST') => fc.oneof({ weight: 8, arbitrary: fc.constant(own) }, fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'));

const query = textParams.map((p) => new URLSearchParams(p as Record<string, string>).toString());
const jobId = fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constantFrom('00000000-0000-0000-0000-000000000000', '%00', '..%2F..%2Fetc'));

const hasBodyMethod = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'get';

describe('garbage at every endpoint', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = Stack.shared('plain');
    key = await stack.createKey('paid');
  });
  afterAll(() => stack?.stop());

  it('answers a success or a well-formed interface error, never a 5xx', async () => {
    const endpoint = fc.constantFrom(...UNIFIED, ...LEGACY);
    const auth = fc.oneof({ weight: 6, arbitrary: fc.constant('good') }, fc.constantFrom('none', 'garbage', 'basic', 'lowercase', 'odd-scheme'));
    const call = endpoint.chain(([own, template]) => method(own).map((m) => ({ own, method: m, template })));
    await fc.assert(
      fc.asyncProperty(call, body, query, jobId, auth, oddHeaders, async ({ own, method, template }, sent, q, id, how, odd) => {
        const path = template.replace('{id}', id) + (!hasBodyMethod(method) && q ? `?${q}` : '');
        const headers: Record<string, string> = { ...odd };
        if (how === 'good') headers.authorization = `Bearer ${key}`;
        if (how === 'garbage') headers.authorization = 'Bearer \u00ff\u00fe nope';
        if (how === 'basic') headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
        if (how === 'lowercase') headers.authorization = `bearer   ${key}  `;
        if (how === 'odd-scheme') headers.authorization = `Digest username="${key}"`;
        const hasBody = hasBodyMethod(method);
        if (sent.contentType !== undefined && hasBody) headers['content-type'] = sent.contentType;
        const response = await fetch(`${stack.url}${path}`, { method, headers, body: hasBody ? sent.body : undefined });
        const raw = Buffer.from(await response.arrayBuffer());
        const where = `${method} ${path.slice(0, 120)} → ${response.status} ${raw.subarray(0, 300).toString()}`;
        expect(response.status, where).toBeLessThan(500);
        expect(response.headers.get('x-request-id'), where).toBeTruthy();
        // A method the interface does not list never converts (HEAD of a GET would run it, answer without a body).
        const listed = method === own || (method === 'HEAD' && template === '/v2/jobs/{id}');
        if (!listed) expect(response.status, where).toBeGreaterThanOrEqual(400);
        if (method === 'HEAD') return;
        if (response.status < 300) return;
        const legacy = template.endsWith('/create');
        if (legacy && response.status === 429) {
          expect(raw.length, where).toBe(0);
          return;
        }
        const answer = JSON.parse(raw.toString());
        if (legacy) {
          // 405 (with Allow) only for a method the legacy path does not have; otherwise the interface's statuses.
          if (response.status === 405) {
            expect(listed, where).toBe(false);
            expect(response.headers.get('allow'), where).toBe('GET, POST');
          } else expect([400, 401, 404, 429], where).toContain(response.status);
          expect(answer, where).toEqual({ status: 'failed', message: expect.any(String), type: expect.any(String) });
          expect(LEGACY_TYPES, where).toContain(answer.type);
          return;
        }
        expect(answer.status, where).toBe('failed');
        const error = answer.error;
        // A method the path does not declare: 405 with Allow (RFC 9110), the error object naming `method`.
        if (response.status === 405) {
          expect(listed, where).toBe(false);
          expect(response.headers.get('allow'), where).toBe(own === 'POST' || template === '/v2/convert' ? 'GET, POST' : 'GET, HEAD');
          expect(error, where).toMatchObject({ code: 'invalid_parameters', retryable: false, errors: [{ parameter: 'method' }] });
          return;
        }
        expect(isErrorCode(error.code), where).toBe(true);
        expect(typeof error.message, where).toBe('string');
        const row = ERROR_CODES[error.code as keyof typeof ERROR_CODES];
        expect(row.statuses as readonly number[], where).toContain(response.status);
        expect(error.retryable, where).toBe(row.retryable);
      }),
      { numRuns: 200, interruptAfterTimeLimit: 90_000 },
    );
  });

  it('never converts for a HEAD request: HEAD is not a method of the conversion endpoints', async () => {
    const other = await stack.createKey('paid');
    for (const path of ['/v2/convert?markdown=%23+Head&output=text', '/v2/text/create?html=%3Cp%3EHead%3C%2Fp%3E']) {
      const response = await fetch(`${stack.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${other}` } });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
    const [{ jobs }] = (await stack.sql`select count(*)::int as jobs from jobs j join api_keys k on k.id = j.key_id where ${other} like k.key_prefix || '%'`) as unknown as [{ jobs: number }];
    expect(jobs).toBe(0);
  });
});
