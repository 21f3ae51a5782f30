import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

/** /v2/convert's parameters, as the interface's table and rules give them, in every encoding. */
describe('the parameters of /v2/convert', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = Stack.shared('plain');
    key = await stack.createKey('paid');
  });
  afterAll(() => stack?.stop());

  const json = (body: unknown) => stack.request('POST', '/v2/convert', { key, json: body });
  const form = (body: string) =>
    stack.request('POST', '/v2/convert', { key, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const query = (q: string) => stack.request('GET', `/v2/convert?${q}`, { key });
  const multipart = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return fetch(`${stack.url}/v2/convert`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: data }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
  };

  function expectInvalid(answer: { status: number; body: any }, parameter: string, status = 400) {
    expect(answer.status).toBe(status);
    expect(answer.body.status).toBe('failed');
    expect(answer.body.error).toMatchObject({ code: 'invalid_parameters', retryable: false });
    expect(answer.body.error.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
  }

  it('refuses a wrong type, null or an array by name, in JSON, and converts nothing', async () => {
    expectInvalid(await json({ markdown: null, output: 'text' }), 'markdown');
    expectInvalid(await json({ markdown: '# x', output: 'text', mode: ['async'] }), 'mode');
    expectInvalid(await json({ markdown: '# x', output: 'text', async: 'true' }), 'async');
    expectInvalid(await json({ markdown: 42, output: 'text' }), 'markdown');
    expectInvalid(await json({ markdown: '# x', output: ['text'] }), 'output');
    expectInvalid(await json({ markdown: '# x', output: 'text', include_links: 1 }), 'include_links');
    expectInvalid(await json({ markdown: '# x', output: 'text', title: { a: 1 } }), 'title');
    expectInvalid(await json(null), 'body');
    expectInvalid(await json([{ markdown: '# x' }]), 'body');
    expectInvalid(await json('markdown'), 'body');
    // No job was made for this key (the stack is shared: other files' keys have jobs of their own).
    const [{ count }] = (await stack.sql`
      select count(*)::int from jobs join api_keys on api_keys.id = jobs.key_id
      where api_keys.key_prefix = ${key.slice(0, 12)}`) as unknown as [{ count: number }];
    expect(count).toBe(0);
  });

  it('refuses a name sent twice in a form or query, and takes true/false as booleans there', async () => {
    expectInvalid(await form('markdown=a&markdown=b&output=text'), 'markdown');
    expectInvalid(await query('markdown=a&output=text&output=html'), 'output');
    expectInvalid(await query('markdown=a&output=text&async=yes'), 'async');
    const queued = await form('markdown=%23+x&output=text&async=true');
    expect(queued.status).toBe(202);
    const fromQuery = await query('markdown=%23%20x&output=text&include_links=false&async=TRUE');
    expect(fromQuery.status).toBe(202);
    const viaMultipart = await multipart({ markdown: '# x', output: 'text', async: 'true' });
    expect(viaMultipart.status).toBe(202);
  });

  it('ignores an unknown parameter', async () => {
    const answer = await json({ markdown: '# known', output: 'text', colour: 'blue', nested: { a: [1] } });
    expect(answer.status).toBe(200);
    expect(answer.body.content).toContain('known');
  });

  it('wants exactly one input, and takes the deprecated aliases', async () => {
    expectInvalid(await json({ output: 'text' }), 'url');
    expect((await json({ markdown: '# a', html: '<p>b</p>', output: 'text' })).status).toBe(400);
    expectInvalid(await json({ page_url: 'ftp://example.com/x', output: 'text' }), 'url');
    const defaultOutput = await json({ markdown: '# pdf by default', async: true });
    expect(defaultOutput.status).toBe(202);
    const job = await stack.waitForJob(key, defaultOutput.body.job_id);
    expect(job.result.output).toBe('pdf');
  });

  it('applies the rules between parameters', async () => {
    expectInvalid(await json({ markdown: '# x', output: 'text', async: true, mode: 'sync' }), 'mode');
    expect((await json({ markdown: '# x', output: 'text', async: true, mode: 'async' })).status).toBe(202);
    expectInvalid(await json({ markdown: '# x', output: 'text', webhook_url: 'https://example.com/hook' }), 'webhook_url');
    expectInvalid(await json({ markdown: '# x', output: 'text', async: true, webhook_url: 'http://example.com/hook' }), 'webhook_url');
    expectInvalid(await json({ markdown: '# x', output: 'text', async: true, webhook_url: `https://example.com/${'a'.repeat(2048)}` }), 'webhook_url');
    expectInvalid(await json({ markdown: '# x', output: 'text', async: true, webhook_url: 'https://127.0.0.1/hook' }), 'webhook_url');
    expectInvalid(await json({ markdown: '# x', output: 'text', async: true, webhook_url: 'https://localhost/hook' }), 'webhook_url');
    expectInvalid(await json({ markdown: '# x', output: 'text', title: 't'.repeat(501) }), 'title');
    expectInvalid(await json({ markdown: '# x', output: 'text', header_text: 'h'.repeat(501) }), 'header_text');
    expect((await json({ markdown: '# x', output: 'text', title: 't'.repeat(500) })).status).toBe(200);
    expectInvalid(await json({ markdown: '# x', output: 'text', page_size: 'legal' }), 'page_size');
    expect((await json({ markdown: '# x', output: 'text', page_size: 'A4' })).status).toBe(200);
    expectInvalid(await json({ markdown: '# x', output: 'text', source_url: 'https://example.com/' }), 'source_url');
  });

  it('refuses page and stylesheet addresses on a private network before any connection, naming them', async () => {
    expectInvalid(await json({ url: 'http://127.0.0.1:9/story', output: 'text' }), 'url');
    expectInvalid(await json({ url: 'http://[::1]/story', output: 'text' }), 'url');
    // The names kept for loopback (RFC 6761), which this host's resolver does not know: refused all the same.
    expectInvalid(await json({ url: 'http://localhost./story', output: 'text' }), 'url');
    expectInvalid(await json({ url: 'http://app.localhost:9/story', output: 'text' }), 'url');
    expectInvalid(await json({ page_url: 'http://10.0.0.8/story', output: 'text' }), 'url');
    expectInvalid(await json({ markdown: '# x', output: 'html', css_url: 'http://192.168.1.1/a.css' }), 'css_url');
    expectInvalid(await json({ markdown: '# x', output: 'html', header_image_url: 'http://169.254.169.254/latest' }), 'header_image_url');
  });

  it('answers X-Request-Id on every response, and echoes a sane one the client sent', async () => {
    const echoed = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# x', output: 'text' }, headers: { 'x-request-id': 'client-abc.123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-abc.123');
    const insane = await stack.request('GET', '/v2/jobs/x', { key, headers: { 'x-request-id': 'a b\u00e9'.replace('\u00e9', 'x') + '!'.repeat(200) } });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const answers = [
      await stack.request('GET', '/v2/convert'),
      await stack.request('GET', '/v2/jobs/00000000-0000-4000-8000-000000000000', { key: 'nope' }),
      await stack.request('POST', '/v2/convert', { key, body: '{"markdown":', headers: { 'content-type': 'application/json' } }),
      await stack.request('POST', '/v2/convert', { key, body: 'x', headers: { 'content-type': 'application/x-bogus' } }),
      await stack.request('GET', '/v2/nothing-here', { key }),
      await stack.request('GET', '/v2/%E0%A4%A', { key }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      expect(answer.body).toMatchObject({ status: 'failed', error: { code: expect.any(String), message: expect.any(String), retryable: false } });
    }
  });
});
