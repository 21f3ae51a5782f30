import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { ApiError, bodyTooLarge } from './errors.ts';
import { LIMITS } from './jobs/convert-request.ts';

/** The interface's largest parameter: html (UTF-16 code units, as JavaScript counts). */
const HTML_CHARS = LIMITS.htmlChars;
/** Room for every other parameter, the JSON or multipart framing around them, and markdown's 1,000,000 characters. */
const SLACK = 1024 * 1024;

/**
 * Bytes a request body may have, by encoding: the html limit at the encoding's worst case a character, so that any
 * html the interface accepts arrives, however its client encodes it, and nothing larger is ever held in memory.
 * A character is a UTF-16 code unit: in UTF-8 it takes at most 3 bytes (a 4-byte sequence is 2 code units).
 *
 * - JSON: 6 bytes, `\uXXXX` (what `json.dumps` and others send for anything outside ASCII). Held as it arrives.
 * - urlencoded form: 9 bytes, `%XX` for each of 3 UTF-8 bytes. Decoded as it streams, so only the decoded bytes
 *   are held, at most 3 a character (`formDecoded`).
 * - multipart: 3 bytes, raw UTF-8, for the whole body (busboy's per-field limit alone would let 64 fields of that
 *   size each be held).
 *
 * A body refused by these limits is refused as it streams past them, with html_too_large; what passes is then held
 * to the interface's limits in characters (the schema, and `admit` for html's 2 MB of markup).
 */
export const BODY_BYTES = {
  json: 6 * HTML_CHARS + SLACK,
  form: 9 * HTML_CHARS + SLACK,
  formDecoded: 3 * HTML_CHARS + SLACK,
  multipart: 3 * HTML_CHARS + SLACK,
} as const;

/** Parameters one body may carry, in a form or as multipart parts (the interface has about twenty). */
export const BODY_PARAMETERS = 64;

/**
 * The whole of a multipart body is held to BODY_BYTES.multipart as it streams. @fastify/multipart pipes the raw
 * request into busboy in its own preValidation hook; this runs before it (onRequest), pauses the request so no byte
 * flows until that pipe, and counts alongside it. Past the limit, the request's error event ends the parse with
 * html_too_large (the plugin listens for it), and the connection closes after the answer instead of reading on.
 */
export async function limitMultipartBody(request: FastifyRequest): Promise<void> {
  if (!/^multipart\//i.test(request.headers['content-type'] ?? '')) return;
  const raw = request.raw;
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= BODY_BYTES.multipart) return;
    raw.removeListener('data', count);
    if (raw.listenerCount('error') > 0) raw.emit('error', bodyTooLarge());
    else raw.destroy();
  };
  raw.pause();
  raw.on('data', count);
}

/**
 * application/x-www-form-urlencoded, decoded as it streams by the WHATWG parser (split on & and the first =, + is a
 * space, %XX a byte, the bytes read as UTF-8 with U+FFFD for invalid sequences). Only decoded bytes are kept, so a form costs at most 3 bytes a character however it was escaped; raw
 * and decoded bytes and the number of parameters are bounded. Listeners, not async iteration, so that a refusal
 * leaves the request open for the answer.
 */
export function parseUrlEncodedStream(payload: Readable): Promise<Record<string, string | string[]>> {
  return new Promise((resolve, reject) => {
    const decoder = new UrlEncodedDecoder();
    let raw = 0;
    const stop = (error: Error | null) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      if (error) reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      raw += bytes.length;
      try {
        if (raw > BODY_BYTES.form) throw bodyTooLarge();
        decoder.write(bytes);
      } catch (error) {
        stop(error as Error);
      }
    };
    const onEnd = () => {
      stop(null);
      try {
        resolve(decoder.end());
      } catch (error) {
        reject(error as Error);
      }
    };
    const onError = (error: Error) => stop(Object.assign(error, { statusCode: 400 }));
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}

/** The content-type parser of urlencoded bodies. */
export function formBodyParser(_request: FastifyRequest, payload: Readable, done: (error: Error | null, body?: unknown) => void): void {
  parseUrlEncodedStream(payload).then((body) => done(null, body), (error: Error) => done(error, undefined));
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const PLUS = 0x2b;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const EQUALS = 0x3d;

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** The state of a form being decoded: the current name=value sequence, decoded so far, and a pending `%` escape. */
export class UrlEncodedDecoder {
  private readonly source: 'body' | 'query';
  /** @param source what a refusal names: the body, or the query string. */
  constructor(source: 'body' | 'query' = 'body') {
    this.source = source;
  }

  private readonly params: Record<string, string | string[]> = Object.create(null);
  private count = 0;
  private decodedTotal = 0;
  private out = Buffer.allocUnsafe(1024);
  private length = 0;
  /** Where the name ends in `out` (the first raw `=`), or -1. */
  private equalsAt = -1;
  /** A `%` escape not yet complete: -1 for none, else how many hex digits follow its `%` so far (0 or 1). */
  private escaped = -1;
  /** The escape's first hex digit, as sent (an escape cut short stands for itself, case and all). */
  private firstDigit = 0;

  write(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) this.take(bytes[i]!);
  }

  end(): Record<string, string | string[]> {
    this.flushPending();
    this.finishPair();
    return this.params;
  }

  private take(byte: number): void {
    if (this.escaped >= 0) {
      const digit = hexValue(byte);
      if (digit >= 0) {
        if (this.escaped === 1) {
          this.escaped = -1;
          this.emit(hexValue(this.firstDigit) * 16 + digit);
        } else {
          this.escaped = 1;
          this.firstDigit = byte;
        }
        return;
      }
      this.flushPending();
    }
    if (byte === AMPERSAND) this.finishPair();
    else if (byte === EQUALS && this.equalsAt < 0) this.equalsAt = this.length;
    else if (byte === PLUS) this.emit(0x20);
    else if (byte === PERCENT) this.escaped = 0;
    else this.emit(byte);
  }

  /** An escape that did not complete stands for itself. */
  private flushPending(): void {
    const escaped = this.escaped;
    this.escaped = -1;
    if (escaped >= 0) this.emit(PERCENT);
    if (escaped === 1) this.emit(this.firstDigit);
  }

  private emit(byte: number): void {
    if (++this.decodedTotal > BODY_BYTES.formDecoded) throw bodyTooLarge();
    if (this.length === this.out.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.out.length * 2, BODY_BYTES.formDecoded + 1));
      this.out.copy(grown, 0, 0, this.length);
      this.out = grown;
    }
    this.out[this.length++] = byte;
  }

  private finishPair(): void {
    if (this.length === 0 && this.equalsAt < 0) return;
    if (++this.count > BODY_PARAMETERS) {
      throw ApiError.invalid(this.source, `more than ${BODY_PARAMETERS} parameters; send each parameter once`);
    }
    const nameEnd = this.equalsAt < 0 ? this.length : this.equalsAt;
    const name = utf8.decode(this.out.subarray(0, nameEnd));
    const value = utf8.decode(this.out.subarray(nameEnd, this.length));
    const seen = this.params[name];
    this.params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    this.length = 0;
    this.equalsAt = -1;
    // A big value leaves a big buffer behind; the next pair starts small again.
    if (this.out.length > 1024 * 1024) this.out = Buffer.allocUnsafe(1024);
  }
}

/** How long, and for how many more bytes, a connection answered before its body was read goes on being read. */
export const LINGER = { ms: 5_000, bytes: 64 * 1024 * 1024 } as const;

/**
 * An answer sent before the request's body was read (html_too_large as it streams, or any refusal before parsing) on
 * a connection that closes after it (the client sent `Connection: close`): Node closes the socket as soon as the
 * answer is written, and closing it while the client is still sending makes the kernel reset it. A reset can discard
 * the answer on the client's side before the client reads it, so the client sees the connection die instead of the
 * 413. As HTTP servers do (nginx's lingering close), the answer is followed by a half-close (FIN) and the rest of the
 * body is read and thrown away until the client stops sending, for at most LINGER.ms and LINGER.bytes; then the
 * connection is closed. (On a kept-alive connection Node reads the rest of the body itself and keeps the connection.)
 * Registered as an onSend hook; does nothing for a request whose body was read.
 */
export async function lingerAfterEarlyAnswer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.complete || reply.raw.shouldKeepAlive) return;
  const socket = raw.socket as Socket & { destroySoon?: () => void };
  // Node closes a `Connection: close` exchange with socket.destroySoon() once the answer is written (resOnFinish).
  socket.destroySoon = () => {
    socket.end();
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER.ms);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER.bytes) close();
    });
    socket.once('end', close);
    socket.once('error', close);
    raw.resume();
    socket.resume();
  };
}
