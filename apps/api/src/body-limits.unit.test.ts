import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { BODY_PARAMETERS, parseUrlEncodedStream, UrlEncodedDecoder } from './body-limits.ts';

/** Form bodies as they come: escapes whole, cut and bogus, + and = and &, any byte, any UTF-8 (valid or not). */
const formBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom('&', '=', '+', '%', '%2', '%3D', '%26', '%2B', '%e2%82%ac', '%E2%82', '%ff', '%C3%A9', '%F0%9F%98%80', '%EF%BB%BF', 'a', 'Z'),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.uint8Array({ maxLength: 4 }).map((b) => Buffer.from(b).toString('latin1')),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Buffer.from(parts.join(''), 'utf8'));

/** The WHATWG urlencoded parser, step by step as the standard writes it, on a whole body. */
function reference(bytes: Buffer): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  const decode = (part: Buffer) => {
    const plain = Buffer.from(part.map((b) => (b === 0x2b ? 0x20 : b)));
    const out: number[] = [];
    for (let i = 0; i < plain.length; i++) {
      const hex = plain.subarray(i + 1, i + 3).toString('latin1');
      if (plain[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        out.push(parseInt(hex, 16));
        i += 2;
      } else out.push(plain[i]!);
    }
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.from(out));
  };
  let from = 0;
  while (from <= bytes.length) {
    let to = bytes.indexOf(0x26, from);
    if (to < 0) to = bytes.length;
    const sequence = bytes.subarray(from, to);
    from = to + 1;
    if (sequence.length === 0) continue;
    const equals = sequence.indexOf(0x3d);
    const name = decode(equals < 0 ? sequence : sequence.subarray(0, equals));
    const value = decode(equals < 0 ? Buffer.alloc(0) : sequence.subarray(equals + 1));
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/** Cuts bytes into chunks at arbitrary places, as a socket does. */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

describe('urlencoded bodies decoded as they stream', () => {
  it('decode exactly as the WHATWG parser does, however the bytes are cut', () => {
    fc.assert(
      fc.property(formBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const decoder = new UrlEncodedDecoder();
        for (const chunk of chunked(bytes, cuts)) decoder.write(chunk);
        expect({ ...decoder.end() }).toEqual(reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a raw é after a literal % and an escape (Node’s URLSearchParams makes it U+FFFD)', () => {
    const decoder = new UrlEncodedDecoder();
    decoder.write(Buffer.from('a=%%41é'));
    expect(decoder.end()).toEqual({ a: '%Aé' });
  });

  it('refuses more parameters than the interface could ever need', async () => {
    const body = Array.from({ length: BODY_PARAMETERS + 1 }, (_, i) => `p${i}=x`).join('&');
    await expect(parseUrlEncodedStream(Readable.from([Buffer.from(body)]))).rejects.toMatchObject({ code: 'invalid_parameters' });
    const justEnough = Array.from({ length: BODY_PARAMETERS }, (_, i) => `p${i}=x`).join('&');
    expect(Object.keys(await parseUrlEncodedStream(Readable.from([Buffer.from(justEnough)])))).toHaveLength(BODY_PARAMETERS);
  });
});
