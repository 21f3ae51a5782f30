import type { FastifyReply, FastifyRequest } from 'fastify';
import { wellFormedValue } from '@folio/events';

/**
 * What every parameter goes through at the door, whatever the encoding (JSON, urlencoded form, multipart, query
 * string), before any schema sees it: Folio's one rule for text (`wellFormedText`): U+0000 and lone surrogates
 * become U+FFFD. Invalid UTF-8 becomes U+FFFD too, by the decoders. So nothing a user sends can fail further down
 * (Postgres refuses NUL and lone surrogates, UTF-8 cannot carry the latter), and it means the same however it came.
 */
export async function wellFormedParameters(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (request.body !== undefined && request.body !== null) request.body = wellFormedValue(request.body);
  if (request.query) (request as { query: unknown }).query = wellFormedValue(request.query);
}

/**
 * Query strings and urlencoded bodies, decoded as browsers and the WHATWG URL standard do: percent-escapes become
 * bytes and the bytes are read as UTF-8, invalid sequences as U+FFFD. (fast-querystring, fastify's default, leaves a
 * whole value undecoded when one escape in it is not UTF-8.) A name sent more than once gives an array, so a schema
 * can refuse it where one value is expected.
 */
export function parseUrlEncoded(text: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}
