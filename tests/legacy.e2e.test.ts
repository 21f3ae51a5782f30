import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { freePort } from '../infra/services/index.ts';
import { servePages } from './support/pages.ts';
import { Stack } from './support/stack.ts';

const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the story tells how the river rose over the old town and how its people carried their books to the hill, one box at a time, until the library stood empty.</p>`;
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Flood Library</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>The Flood Library</h1>${Array.from({ length: 10 }, (_, i) => paragraph(i)).join('\n')}</article>
<footer>Subscribe</footer></body></html>`;
const HTML = `<h2>Letters from the hill</h2>${Array.from({ length: 4 }, (_, i) => paragraph(i)).join('\n')}`;

type Answer = { status: number; headers: Headers; bytes: Buffer; text: string; body: any };

/**
 * POST and GET /v2/pdf/create, /v2/html/create and /v2/text/create against the whole stack: the legacy answers
 * (a file link, or the file itself), the legacy error shape for every kind of failure, and the meter.
 */
describe('legacy endpoints', () => {
  let stack: Stack;
  let key: string;
  let site: Server;
  let origin: string;
  let closedOrigin: string;

  beforeAll(async () => {
    ({ server: site, origin } = await servePages({
      '/2024/05/flood-library': { type: 'text/html; charset=utf-8', body: ARTICLE },
      '/empty-story': { type: 'text/html', body: '<html><body><nav>menu</nav></body></html>' },
    }));
    // 127.0.0.1 stands in for the public web; a port nobody listens on is a page that cannot be reached.
    closedOrigin = `http://127.0.0.1:${await freePort()}`;
    // Test stacks keep files on local disk unless a test names S3, so the API's own /files links serve html and text.
    stack = Stack.shared('loopback-public');
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    site?.close();
  });

  /** A request with its answer read as bytes (a legacy answer may be the file itself). */
  async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { json?: unknown; form?: Record<string, string>; multipart?: Record<string, string>; query?: Record<string, string>; auth?: string | null } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? `Bearer ${key}` : options.auth;
    if (auth) headers.authorization = auth;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.multipart) {
      body = new FormData();
      for (const [name, value] of Object.entries(options.multipart)) body.append(name, value);
    }
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const response = await fetch(`${stack.url}${path}${query}`, { method, headers, body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, bytes, text, body: parsed };
  }

  const basic = (apiKey: string) => `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;

  async function download(url: string): Promise<{ type: string; bytes: Buffer }> {
    expect(url.startsWith(`${stack.url}/files/`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const type = response.headers.get('content-type') ?? '';
    // Served from the API's origin: an html file is sandboxed there.
    if (type.startsWith('text/html')) expect(response.headers.get('content-security-policy')).toBe('sandbox');
    return { type, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  const expectFailure = (answer: Answer, status: number, type: string, message?: RegExp) => {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.body).toEqual({ status: 'failed', message: expect.any(String), type });
    if (message) expect(answer.body.message).toMatch(message);
  };

  describe.each([
    { output: 'pdf', type: 'application/pdf', check: (bytes: Buffer) => expect(bytes.subarray(0, 5).toString()).toBe('%PDF-') },
    {
      output: 'html',
      type: 'text/html',
      check: (bytes: Buffer) => {
        expect(bytes.toString()).toMatch(/^<!DOCTYPE html>/);
        expect(bytes.toString()).toContain('Paragraph 3 of the story');
        expect(bytes.toString()).toContain('<style>');
      },
    },
    {
      output: 'text',
      type: 'text/plain',
      check: (bytes: Buffer) => {
        expect(bytes.toString()).toContain('Paragraph 3 of the story');
        expect(bytes.toString()).not.toMatch(/<p>|Subscribe/);
      },
    },
  ])('/v2/$output/create', ({ output, type, check }) => {
    const path = `/v2/${output}/create`;

    it('POST a page_url: answers {status, file_url}, and the link serves the file', async () => {
      const answer = await call('POST', path, { json: { page_url: `${origin}/2024/05/flood-library` } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ status: 'success', file_url: expect.stringMatching(/^https?:\/\//) });
      const file = await download(answer.body.file_url);
      expect(file.type).toContain(type);
      check(file.bytes);
    });

    it('GET with html in the query string: the same answer', async () => {
      const answer = await call('GET', path, { query: { html: HTML, title: 'Flood Library letters' } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ status: 'success', file_url: expect.any(String) });
      const file = await download(answer.body.file_url);
      expect(file.type).toContain(type);
      check(file.bytes);
    });

    it('answers the file itself under HTTP Basic, inline', async () => {
      const answer = await call('POST', path, { json: { html: HTML, title: 'Flood Library letters' }, auth: basic(key) });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('content-type')).toContain(type);
      expect(answer.headers.get('content-disposition')).toBe(`inline; filename="flood-library-letters.${output === 'text' ? 'txt' : output}"`);
      check(answer.bytes);
    });
  });

  it('takes urlencoded and multipart bodies', async () => {
    const form = await call('POST', '/v2/text/create', { form: { html: HTML, output_type: 'inline' } });
    expect(form.status, form.text).toBe(200);
    expect(form.text).toContain('Paragraph 2 of the story');
    const multipart = await call('POST', '/v2/html/create', { multipart: { page_url: `${origin}/2024/05/flood-library` } });
    expect(multipart.status, multipart.text).toBe(200);
    expect(multipart.body).toEqual({ status: 'success', file_url: expect.any(String) });
  });

  it('hands over the file as an attachment for output_type attachment and download, in place for inline', async () => {
    const attachment = await call('POST', '/v2/pdf/create', { json: { html: HTML, title: 'Letters', output_type: 'attachment', page_size: 'A4' } });
    expect(attachment.status, attachment.text).toBe(200);
    expect(attachment.headers.get('content-type')).toBe('application/pdf');
    expect(attachment.headers.get('content-disposition')).toBe('attachment; filename="letters.pdf"');
    expect(attachment.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const downloaded = await call('GET', '/v2/text/create', { query: { html: HTML, title: 'Letters', output_type: 'download' } });
    expect(downloaded.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(downloaded.headers.get('content-disposition')).toBe('attachment; filename="letters.txt"');
    expect(downloaded.text).toMatch(/^Letters\n\n/);

    const inline = await call('POST', '/v2/html/create', { json: { html: HTML, title: 'Letters', output_type: 'inline', header_text: 'From the archive', lang: 'en', dir: 'ltr' } });
    expect(inline.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(inline.headers.get('content-disposition')).toBe('inline; filename="letters.html"');
    expect(inline.headers.get('content-security-policy')).toBe('sandbox');
    expect(inline.text).toContain('<html lang="en" dir="ltr">');
    expect(inline.text).toContain('From the archive');
    expect(inline.text).not.toMatch(/<script/i);
  });

  it('converts the html when page_url is sent too, showing page_url as its source without fetching it', async () => {
    const source = `${closedOrigin}/where-it-came-from`;
    const answer = await call('POST', '/v2/html/create', { json: { html: HTML, page_url: source, output_type: 'inline' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('Letters from the hill');
    expect(answer.text).toContain(`href="${source}"`);
  });

  it('refuses each parameter it does not take, naming it, in the legacy shape', async () => {
    const refused: Record<string, unknown> = { async: true, mode: 'sync', webhook_url: 'https://example.com/hook', output: 'pdf', markdown: '# x' };
    for (const [name, value] of Object.entries(refused)) {
      const answer = await call('POST', '/v2/pdf/create', { json: { html: HTML, [name]: value } });
      expectFailure(answer, 400, 'parameters-validation', new RegExp(`\\b${name}: not accepted`));
    }
    const query = await call('GET', '/v2/text/create', { query: { html: HTML, output: 'text' } });
    expectFailure(query, 400, 'parameters-validation', /output/);
  });

  it('refuses a request without page_url or html, and a malformed parameter, in the legacy shape', async () => {
    expectFailure(await call('POST', '/v2/pdf/create', { json: { title: 'nothing' } }), 400, 'parameters-validation', /page_url or html/);
    expectFailure(await call('GET', '/v2/html/create'), 400, 'parameters-validation', /page_url or html/);
    expectFailure(await call('POST', '/v2/pdf/create', { json: { html: HTML, output_type: 'email' } }), 400, 'parameters-validation', /output_type/);
    expectFailure(await call('POST', '/v2/pdf/create', { json: { html: HTML, page_size: 'Legal' } }), 400, 'parameters-validation', /page_size/);
  });

  it('answers authentication failures and unknown paths in the legacy shape', async () => {
    expectFailure(await call('POST', '/v2/pdf/create', { json: { html: HTML }, auth: 'Bearer folio_not_a_key' }), 401, 'parameters-validation', /not known/);
    expectFailure(await call('GET', '/v2/text/create', { query: { html: HTML }, auth: basic('folio_not_a_key') }), 401, 'parameters-validation');
    expectFailure(await call('POST', '/v2/html/create', { json: { html: HTML }, auth: null }), 401, 'parameters-validation', /API key is required/);
    expectFailure(await call('GET', '/v2/pdf/make'), 404, 'catch-all');
    const refused = await call('DELETE', '/v2/pdf/create');
    expectFailure(refused, 405, 'catch-all', /DELETE is not accepted here/);
    expect(refused.headers.get('allow')).toBe('GET, POST');
  });

  it('answers a page that cannot be fetched with fetch-error, and a private host with parameters-validation', async () => {
    expectFailure(await call('POST', '/v2/pdf/create', { json: { page_url: `${closedOrigin}/story` } }), 400, 'fetch-error');
    expectFailure(await call('GET', '/v2/text/create', { query: { page_url: `${origin}/missing` } }), 400, 'fetch-error', /404/);
    expectFailure(await call('POST', '/v2/text/create', { json: { page_url: 'http://127.0.0.2/secret' } }), 400, 'parameters-validation', /private/);
  });

  it('answers a page without an article with failed-parsed, and html over 2 MB of markup with large-page', async () => {
    expectFailure(await call('POST', '/v2/text/create', { json: { page_url: `${origin}/empty-story` } }), 400, 'failed-parsed');
    const huge = `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`;
    expectFailure(await call('POST', '/v2/text/create', { json: { html: huge } }), 400, 'large-page');
    // Over the legacy limit of 50,000,000 characters (the body itself is within the byte limit).
    const tooLarge = `<p>${'x'.repeat(50_000_000)}</p>`;
    expectFailure(await call('POST', '/v2/pdf/create', { json: { html: tooLarge } }), 400, 'large-page', /50000000 characters/);
  });

  it('counts a legacy document like any other: a key at its limit answers 401 with API limit exceeded', async () => {
    const limited = await stack.createKey('free', 1);
    const first = await call('POST', '/v2/text/create', { json: { html: HTML }, auth: `Bearer ${limited}` });
    expect(first.status, first.text).toBe(200);
    const second = await call('POST', '/v2/pdf/create', { json: { html: HTML }, auth: basic(limited) });
    expectFailure(second, 401, 'parameters-validation', /^API limit exceeded/);
    // The legacy success used the key's one document: /v2/convert is refused too, in its own shape.
    const unified = await stack.request('POST', '/v2/convert', { key: limited, json: { html: HTML, output: 'text' } });
    expect(unified.status).toBe(401);
    expect(unified.body.error.code).toBe('limit_exceeded');
  });
});
