import { describe, expect, it } from 'vitest';
import { decodeDataUrl } from './data-url.ts';

describe('decodeDataUrl', () => {
  it('decodes base64, with whitespace, percent escapes or the URL-safe alphabet', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0x00, 0x41]);
    expect(decodeDataUrl(`data:image/png;base64,${bytes.toString('base64')}`, 100)).toEqual({ ok: true, data: bytes });
    expect(decodeDataUrl('data:image/png;base64, +/8A\n QQ== ', 100)).toEqual({ ok: true, data: bytes });
    expect(decodeDataUrl('data:image/png;base64,%2B%2F8AQQ%3D%3D', 100)).toEqual({ ok: true, data: bytes });
    expect(decodeDataUrl('data:image/png;base64,-_8AQQ', 100)).toEqual({ ok: true, data: bytes });
  });

  it('decodes percent-encoded text', () => {
    const decoded = decodeDataUrl('data:image/svg+xml,%3Csvg%3E%3C/svg%3E', 100);
    expect(decoded.ok && Buffer.from(decoded.data).toString()).toBe('<svg></svg>');
  });

  it('refuses a payload over the limit by its length, before decoding it', () => {
    const payload = Buffer.alloc(3000).toString('base64');
    expect(decodeDataUrl(`data:image/png;base64,${payload}`, 2999)).toEqual({ ok: false, reason: 'too-large' });
    expect(decodeDataUrl(`data:image/png;base64,${payload}`, 3000)).toMatchObject({ ok: true });
  });

  it('refuses what is not a data URL or not base64', () => {
    expect(decodeDataUrl('https://example.com/a.png', 100)).toEqual({ ok: false, reason: 'invalid' });
    expect(decodeDataUrl('data:image/png;base64', 100)).toEqual({ ok: false, reason: 'invalid' });
    expect(decodeDataUrl('data:image/png;base64,not*base64!', 100)).toEqual({ ok: false, reason: 'invalid' });
    expect(decodeDataUrl('data:text/plain,100%', 100)).toEqual({ ok: false, reason: 'invalid' });
  });
});
