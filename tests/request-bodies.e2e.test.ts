import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { Stack } from './support/stack.ts';

const HTML_CHARS = 50_000_000;

/** A page of little markup and one big embedded image: html of exactly `chars` characters (data: images are not markup). */
function bigHtml(chars: number): string {
  const head = '<h1>Big</h1><p>One embedded image.</p><img alt="big" src="data:image/png;base64,';
  const tail = '">';
  return head + 'A'.repeat(chars - head.length - tail.length) + tail;
}

/** Sends `total` bytes (a JSON prefix, filler, a suffix) as a stream, and resolves with the answer, even if it comes early. */
function streamBody(url: string, key: string, contentType: string, prefix: string, total: number, suffix: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType, 'content-length': String(total) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 'A');
    let sent = 0;
    const write = () => {
      if (sent === 0) sent += (req.write(prefix), Buffer.byteLength(prefix));
      while (sent < total - Buffer.byteLength(suffix)) {
        const n = Math.min(chunk.length, total - Buffer.byteLength(suffix) - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', write);
      }
      req.end(suffix);
    };
    // The server may answer and close before everything is sent: that answer is what the test wants.
    req.on('socket', (socket) => socket.on('error', () => {}));
    write();
  });
}

describe('request bodies and their limits', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await Stack.start({ renderers: 1, env: { FOLIO_RENDER_CONCURRENCY: '1' } });
    key = await stack.createKey('paid');
  });
  afterAll(() => stack?.stop());

  it('accepts html of 50,000,000 characters as JSON, as a form and as multipart', async () => {
    const html = bigHtml(HTML_CHARS);
    expect(html.length).toBe(HTML_CHARS);
    const asJson = await stack.request('POST', '/v2/convert', { key, json: { html, output: 'text', async: true } });
    expect(asJson.status).toBe(202);
    const asForm = await stack.request('POST', '/v2/convert', {
      key,
      body: new URLSearchParams({ html, output: 'text', async: 'true' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(asForm.status).toBe(202);
    const data = new FormData();
    data.append('html', html);
    data.append('output', 'text');
    data.append('async', 'true');
    const asMultipart = await fetch(`${stack.url}/v2/convert`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: data });
    expect(asMultipart.status).toBe(202);
    const job = await stack.waitForJob(key, asJson.body.job_id, 120_000);
    expect(job.status).toBe('succeeded');
    expect(job.result.content).toContain('One embedded image.');
  });

  it('refuses one character more with html_too_large, 413', async () => {
    const answer = await stack.request('POST', '/v2/convert', { key, json: { html: bigHtml(HTML_CHARS + 1), output: 'text', async: true } });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'html_too_large', retryable: false });
  });

  it('refuses a body past the byte limit as it streams, in every encoding, with html_too_large', async () => {
    const total = 202 * 1000 * 1000;
    const json = await streamBody(`${stack.url}/v2/convert`, key, 'application/json', '{"output":"text","html":"', total, '"}');
    expect(json.status).toBe(413);
    expect(json.body.error.code).toBe('html_too_large');
    const form = await streamBody(`${stack.url}/v2/convert`, key, 'application/x-www-form-urlencoded', 'output=text&html=', total, '');
    expect(form.status).toBe(413);
    expect(form.body.error.code).toBe('html_too_large');
    const boundary = 'folioboundary';
    const multipart = await streamBody(
      `${stack.url}/v2/convert`,
      key,
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="output"\r\n\r\ntext\r\n--${boundary}\r\nContent-Disposition: form-data; name="html"\r\n\r\n`,
      total,
      `\r\n--${boundary}--\r\n`,
    );
    expect(multipart.status).toBe(413);
    expect(multipart.body.error.code).toBe('html_too_large');
  });

  it('refuses a file part by its name, too many parts, and a body of an unknown type, as invalid_parameters', async () => {
    const withFile = new FormData();
    withFile.append('output', 'text');
    withFile.append('markdown', new Blob(['# a file']), 'doc.md');
    const file = await fetch(`${stack.url}/v2/convert`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: withFile });
    expect(file.status).toBe(400);
    expect((await file.json()).error).toMatchObject({ code: 'invalid_parameters', errors: [{ parameter: 'markdown' }] });

    const many = new FormData();
    for (let i = 0; i < 100; i++) many.append(`p${i}`, 'x');
    const tooMany = await fetch(`${stack.url}/v2/convert`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: many });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.code).toBe('invalid_parameters');

    const bogus = await stack.request('POST', '/v2/convert', { key, body: 'markdown=x', headers: { 'content-type': 'text/csv' } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.code).toBe('invalid_parameters');
  });
});
