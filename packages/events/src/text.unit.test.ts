import { describe, expect, it } from 'vitest';
import { wellFormedText, wellFormedValue } from './text.ts';

describe('well-formed text', () => {
  it('replaces NUL and lone surrogates with U+FFFD and keeps everything else', () => {
    expect(wellFormedText('a\u0000b')).toBe('a\uFFFDb');
    expect(wellFormedText('x\uD800y\uDC00z')).toBe('x\uFFFDy\uFFFDz');
    expect(wellFormedText('end\uD83D')).toBe('end\uFFFD');
    const kept = 'emoji 👩‍👩‍👧 🇫🇷, bidi \u202Eevil\u202C, tab\tnewline\n, \u0001';
    expect(wellFormedText(kept)).toBe(kept);
  });

  it('goes through arrays, objects and keys, and leaves other values alone', () => {
    expect(wellFormedValue({ a: ['\u0000', 1, null, true], 'k\u0000': { b: '\uDFFF' } })).toEqual({
      a: ['\uFFFD', 1, null, true],
      'k\uFFFD': { b: '\uFFFD' },
    });
    expect(JSON.stringify(wellFormedValue({ t: 'x\u0000' }))).not.toContain('\\u0000');
  });
});
