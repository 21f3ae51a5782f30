import { describe, expect, it } from 'vitest';
import Fastify, { type InjectOptions } from 'fastify';
import multipart from '@fastify/multipart';
import { formBodyParser } from './body-limits.ts';
import { booleansFromText, parseUrlEncoded, wellFormedParameters } from './intake.ts';

describe('parameters at the door', () => {
  it('decodes urlencoded text as UTF-8, invalid sequences as U+FFFD, and keeps repeated names as arrays', () => {
    const params = parseUrlEncoded('markdown=a%FFb%00c%ED%A0%80d&title=%E2%82&x=1&x=2&plus=a+b&emoji=%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7');
    expect(params.markdown).toBe('a\uFFFDb\u0000c\uFFFD\uFFFD\uFFFDd');
    expect(params.title).toBe('\uFFFD');
    expect(params.x).toEqual(['1', '2']);
    expect(params.plus).toBe('a b');
    expect(params.emoji).toBe('👩‍👧');
  });

  it('makes every string of every encoding well-formed before validation', async () => {
    const app = Fastify({ querystringParser: parseUrlEncoded });
    app.addContentTypeParser('application/x-www-form-urlencoded', formBodyParser);
    await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { files: 0 } });
    app.addHook('preValidation', wellFormedParameters);
    app.all('/x', async (request) => ({ body: request.body ?? null, query: request.query }));
    const seen = async (options: InjectOptions) => (await app.inject(options)).json();

    const json = await seen({ method: 'POST', url: '/x', headers: { 'content-type': 'application/json' }, payload: '{"markdown":"a\\u0000b\\ud800c","nested":{"t":["\\udfff"]}}' });
    expect(json.body).toEqual({ markdown: 'a\uFFFDb\uFFFDc', nested: { t: ['\uFFFD'] } });

    const form = await seen({
      method: 'POST',
      url: '/x?title=t%00',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: Buffer.concat([Buffer.from('markdown=a'), Buffer.from([0xff, 0xc3]), Buffer.from('b%00c')]),
    });
    expect(form).toEqual({ body: { markdown: 'a\uFFFD\uFFFDb\uFFFDc' }, query: { title: 't\uFFFD' } });

    const boundary = 'b0undary';
    const multipartBody = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="markdown"\r\n\r\na`),
      Buffer.from([0xff, 0x00, 0xc3]),
      Buffer.from(`b\r\n--${boundary}--\r\n`),
    ]);
    const parts = await seen({ method: 'POST', url: '/x', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipartBody });
    expect(parts.body.markdown).toBe('a\uFFFD\uFFFD\uFFFDb');
    await app.close();
  });

  it('reads booleans and plain-digit integers from text where the schema wants them, and leaves anything else for the schema to refuse', () => {
    const schema = { properties: { async: { type: 'boolean' }, limit: { type: 'integer' }, title: { type: 'string' } } };
    expect(booleansFromText({ async: 'TRUE', limit: '20', title: '7' }, schema)).toEqual({ async: true, limit: 20, title: '7' });
    for (const limit of ['-1', '1.5', '1e3', ' 2', '', '0x10', ['1', '2']]) {
      expect(booleansFromText({ limit }, schema)).toEqual({ limit });
    }
  });
});
