export type DataUrlBytes = { ok: true; data: Uint8Array } | { ok: false; reason: 'too-large' | 'invalid' };

/**
 * Decodes a `data:` URL's bytes, refusing a payload larger than `maxBytes` before decoding it (an article may carry
 * megabytes of inline images, and an oversized one must not cost its decoding).
 */
export function decodeDataUrl(url: string, maxBytes: number): DataUrlBytes {
  const comma = url.indexOf(',');
  if (comma < 0 || !/^\s*data:/i.test(url)) return { ok: false, reason: 'invalid' };
  const header = url.slice(url.indexOf(':') + 1, comma);
  const body = url.slice(comma + 1).trim();
  if (/;\s*base64\s*$/i.test(header)) {
    const base64 = body.replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) return { ok: false, reason: 'invalid' };
    if (Math.floor((base64.replace(/=+$/, '').length * 3) / 4) > maxBytes) return { ok: false, reason: 'too-large' };
    return { ok: true, data: Buffer.from(base64, 'base64') };
  }
  if (body.length > maxBytes * 3) return { ok: false, reason: 'too-large' };
  let data: Uint8Array;
  try {
    data = Buffer.from(decodeURIComponent(body), 'utf8');
  } catch {
    return { ok: false, reason: 'invalid' }; // a stray % that is not an escape
  }
  return data.byteLength > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, data };
}
