import type { FastifyReply, FastifyRequest } from 'fastify';
import { wellFormedValue } from '@folio/events';
import { ApiError } from './errors.ts';
import { BODY_BYTES, UrlEncodedDecoder } from './body-limits.ts';
import { HTML_LIMIT_TEXT } from './jobs/convert-request.ts';

/**
 * What every parameter goes through at the door, whatever the encoding (JSON, urlencoded form, multipart, query
 * string), before any schema sees it: Folio's one rule for text (`wellFormedText`): U+0000 and lone surrogates
 * become U+FFFD. Invalid UTF-8 becomes U+FFFD too, by the decoders. So nothing a user sends can fail further down
 * (Postgres refuses NUL and lone surrogates, UTF-8 cannot carry the latter), and it means the same however it came.
 * Then booleans and integers sent as text (forms, query strings) become booleans and integers; nothing else is coerced.
 */
export async function wellFormedParameters(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const schema = request.routeOptions.schema as { body?: SchemaLike; querystring?: SchemaLike } | undefined;
  if (request.body !== undefined && request.body !== null) {
    if (/^multipart\//i.test(request.headers['content-type'] ?? '')) refuseCutFields(request.body);
    request.body = wellFormedValue(request.body);
    if (isTextEncoded(request.headers['content-type'])) request.body = booleansFromText(request.body, schema?.body);
  }
  if (request.query) (request as { query: unknown }).query = booleansFromText(wellFormedValue(request.query), schema?.querystring);
}

/**
 * Query strings, decoded as browsers and the WHATWG URL standard do, by the decoder urlencoded bodies stream through:
 * percent-escapes become bytes and the bytes are read as UTF-8, invalid sequences as U+FFFD. (fast-querystring,
 * fastify's default, leaves a whole value undecoded when one escape in it is not UTF-8; Node's URLSearchParams turns
 * a raw é after `%%41` into U+FFFD.) A name sent more than once gives an array, so a schema can refuse it where one
 * value is expected.
 */
export function parseUrlEncoded(text: string): Record<string, string | string[]> {
  const decoder = new UrlEncodedDecoder('query');
  decoder.write(Buffer.from(text));
  return decoder.end();
}

/** A multipart field as long as the limit was cut there by the parser: refused, never converted cut short. (The whole
 * body is held to the same limit as it streams, so this is the second line of defence.) */
function refuseCutFields(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string' && Buffer.byteLength(value) >= BODY_BYTES.multipart) {
      throw new ApiError('html_too_large', `${name} is over the size limit of a request (html is limited to ${HTML_LIMIT_TEXT})`);
    }
  }
}

type SchemaLike = { type?: unknown; properties?: Record<string, SchemaLike> } | undefined;

/**
 * Forms and query strings carry only text, so there a boolean parameter arrives as `true` or `false` and an integer
 * as digits; JSON carries real booleans and numbers and must send them so. Nothing else is converted: the schemas check types strictly (a null, an array
 * or a number where a string belongs is refused by name, never coerced into something that converts).
 */
export function booleansFromText(params: unknown, schema: SchemaLike): unknown {
  if (!schema?.properties || params === null || typeof params !== 'object' || Array.isArray(params)) return params;
  const out: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = out[name];
    if (property?.type === 'boolean' && typeof value === 'string') {
      const text = value.trim().toLowerCase();
      if (text === 'true') out[name] = true;
      else if (text === 'false') out[name] = false;
    }
    // Integers likewise (a listing's `limit`); anything but plain digits stays text, for the schema to refuse by name.
    if (property?.type === 'integer' && typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) out[name] = Number(value);
  }
  return out;
}

/** Whether a body was sent as text fields (a form or multipart) rather than JSON. */
export function isTextEncoded(contentType: string | undefined): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType ?? '');
}
