import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Stack } from './support/stack.ts';

const HTML_CHARS = 50_000_000;

/** A page of little markup and one big embedded image: html of exactly `chars` characters (data: images are not markup). */
function bigHtml(chars: number): string {
  const head = '<h1>Big</h1><p>One embedded image.</p><img alt="big" src="data:image/png;base64,';
  const tail = '">';
  return head + 'A'.repeat(chars - head.length - tail.length) + tail;
}

/**
 * Sends `prefix`, then `unit` `count` times, then `suffix`, as a stream with its Content-Length, and resolves with the
 * answer, even if it comes before everything is sent.
 */
function streamBody(url: string, key: string, contentType: string, parts: { prefix: string; unit: string; count: number; suffix: string }): Promise<{ status: number; body: any }> {
  const unit = Buffer.from(parts.unit);
  const total = Buffer.byteLength(parts.prefix) + unit.length * parts.count + Buffer.byteLength(parts.suffix);
  const { hostname, port, pathname } = new URL(url);
  // A bare socket: the server answers and closes while the body is still being written, and the write then fails
  // (EPIPE, reset). An HTTP client gives up on the whole exchange then; here the answer already received is read.
  return new Promise((resolve, reject) => {
    let left = parts.count;
    let answered = false;
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    // Once the answer starts, writing stops: more bytes to a server that has closed make it reset the connection,
    // and a reset can discard the answer before it is read.
    socket.on('data', (d) => {
      received.push(d);
      left = 0;
      answered = true;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      if (!status) return reject(new Error(`no answer: ${text.slice(0, 200)}`));
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status, body: body ? JSON.parse(body) : null });
    });
    const perChunk = Math.max(1, Math.floor((1024 * 1024) / unit.length));
    const chunk = Buffer.concat(Array.from({ length: perChunk }, () => unit));
    const write = () => {
      while (left > 0 && socket.writable) {
        const n = Math.min(perChunk, left);
        left -= n;
        if (!socket.write(n === perChunk ? chunk : chunk.subarray(0, n * unit.length))) return void socket.once('drain', write);
      }
      if (socket.writable && !answered) socket.write(parts.suffix);
    };
    socket.once('connect', () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\n` +
          `Content-Length: ${total}\r\nConnection: close\r\n\r\n${parts.prefix}`,
      );
      write();
    });
  });
}

const BOUNDARY = 'folioboundary';
const field = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`;
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** html of HTML_CHARS characters whose embedded image is written in `unit`s, each one character of the html. */
function worstCase(unit: string, escape: (text: string) => string) {
  const head = '<h1>Big</h1><p>One embedded image.</p><img alt="big" src="data:image/png;base64,';
  const tail = '">';
  return { head: escape(head), count: HTML_CHARS - head.length - tail.length, unit, tail: escape(tail) };
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
    const job = await stack.waitForJob(key, asJson.body.job_id, 120_000);
    expect(job.status).toBe('succeeded');
    expect(job.result.content).toContain('One embedded image.');
    // One such body is converted end to end; every one after it is only admitted. The renderer stops here, so that
    // their conversions (4–9 s of CPU each, five of them) do not take the suite's CPU from the other files.
    await stack.running('renderer')[0]!.stop();

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
  });

  it('refuses one character more with html_too_large, 413', async () => {
    const answer = await stack.request('POST', '/v2/convert', { key, json: { html: bigHtml(HTML_CHARS + 1), output: 'text', async: true } });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'html_too_large', retryable: false });
  });

  it('accepts 50,000,000 characters in each encoding’s worst case: \\u escapes in JSON, %XX%XX%XX in a form, 3-byte UTF-8 in multipart', async () => {
    // € is U+20AC: \u20ac (6 bytes) in JSON, %E2%82%AC (9 bytes) in a form, 3 raw bytes in multipart.
    const json = worstCase('\\u20ac', (t) => JSON.stringify(t).slice(1, -1));
    const asJson = await streamBody(`${stack.url}/v2/convert`, key, 'application/json', {
      prefix: `{"output":"text","async":true,"html":"${json.head}`,
      unit: json.unit,
      count: json.count,
      suffix: `${json.tail}"}`,
    });
    expect(asJson.status, JSON.stringify(asJson.body)).toBe(202);
    const form = worstCase('%E2%82%AC', encodeURIComponent);
    const asForm = await streamBody(`${stack.url}/v2/convert`, key, 'application/x-www-form-urlencoded', {
      prefix: `output=text&async=true&html=${form.head}`,
      unit: form.unit,
      count: form.count,
      suffix: form.tail,
    });
    expect(asForm.status, JSON.stringify(asForm.body)).toBe(202);
    const raw = worstCase('€', (t) => t);
    const asMultipart = await streamBody(`${stack.url}/v2/convert`, key, MULTIPART, {
      prefix: `${field('output')}text\r\n${field('async')}true\r\n${field('html')}${raw.head}`,
      unit: raw.unit,
      count: raw.count,
      suffix: `${raw.tail}\r\n--${BOUNDARY}--\r\n`,
    });
    expect(asMultipart.status, JSON.stringify(asMultipart.body)).toBe(202);
  });

  it('refuses a body past its encoding’s byte limit as it streams, with html_too_large', async () => {
    const url = `${stack.url}/v2/convert`;
    const json = await streamBody(url, key, 'application/json', { prefix: '{"output":"text","html":"', unit: 'A', count: 6 * HTML_CHARS + 1024 * 1024, suffix: '"}' });
    expect(json.status).toBe(413);
    expect(json.body.error.code).toBe('html_too_large');
    // A form is held to 3 bytes a character once decoded: plain ASCII past that is refused before its raw limit.
    const form = await streamBody(url, key, 'application/x-www-form-urlencoded', { prefix: 'output=text&html=', unit: 'A', count: 3 * HTML_CHARS + 1024 * 1024, suffix: '' });
    expect(form.status).toBe(413);
    expect(form.body.error.code).toBe('html_too_large');
    const multipart = await streamBody(url, key, MULTIPART, {
      prefix: `${field('output')}text\r\n${field('html')}`,
      unit: 'A',
      count: 3 * HTML_CHARS + 1024 * 1024,
      suffix: `\r\n--${BOUNDARY}--\r\n`,
    });
    expect(multipart.status).toBe(413);
    expect(multipart.body.error.code).toBe('html_too_large');
  });

  it('holds a multipart body to its limit as a whole, not only field by field', async () => {
    // Three fields, each well under the per-field limit, together over the body's: refused, not held in memory.
    const filler = 'A'.repeat(1024 * 1024);
    const many = await streamBody(`${stack.url}/v2/convert`, key, MULTIPART, {
      prefix: `${field('output')}text\r\n${field('markdown')}# Small\r\n${field('p1')}`,
      unit: `${filler}`,
      count: 60,
      suffix: `\r\n${field('p2')}${filler.repeat(60)}\r\n${field('p3')}${filler.repeat(60)}\r\n--${BOUNDARY}--\r\n`,
    });
    expect(many.status).toBe(413);
    expect(many.body.error.code).toBe('html_too_large');
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

    const form = await stack.request('POST', '/v2/convert', {
      key,
      body: Array.from({ length: 65 }, (_, i) => `p${i}=x`).join('&'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body.error).toMatchObject({ code: 'invalid_parameters', errors: [{ parameter: 'body' }] });

    const bogus = await stack.request('POST', '/v2/convert', { key, body: 'markdown=x', headers: { 'content-type': 'text/csv' } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.code).toBe('invalid_parameters');
    expect(bogus.body.error.message).toContain('text/csv');
  });
});
