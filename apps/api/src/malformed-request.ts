import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { ApiError } from './errors.ts';
import { legacyFailure } from './routes/legacy-errors.ts';

/**
 * What a request Node's HTTP parser refuses before fastify sees it gets: the interface's error object with an
 * X-Request-Id, not fastify's own shape (a query string longer than the 16 KB of request line and headers, a
 * malformed request). Long parameters belong in a POST body, where the limits are the interface's.
 */
export function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ApiError.invalid('query', 'the request line and headers are over 16 KB; send long parameters in a POST body')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ApiError.invalid('body', 'the request did not arrive in time')
        : ApiError.invalid('request', 'not a well-formed HTTP request');
  // The parser keeps the bytes it read: enough to tell a legacy endpoint, which answers in its own shape.
  const start = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 64).toString('latin1') ?? '';
  const legacy = /^[A-Z]+ \/v2\/(pdf|html|text)\/create\b/.test(start);
  const body = JSON.stringify(legacy ? legacyFailure(refusal).body : { status: 'failed', error: refusal.body() });
  socket.end(
    `HTTP/1.1 ${refusal.status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}
