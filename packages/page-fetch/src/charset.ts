/**
 * The page's character encoding: the Content-Type header's charset, else a byte-order mark, else a `<meta charset>`
 * or `<meta http-equiv="Content-Type">` in the first 4 KB, else UTF-8 (the HTML standard's default for new pages).
 */
export function detectCharset(contentType: string | null, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (fromHeader && isSupported(fromHeader)) return fromHeader.toLowerCase();
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const fromMeta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
  if (fromMeta && isSupported(fromMeta)) return fromMeta.toLowerCase();
  return 'utf-8';
}

function isSupported(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

export function decode(bytes: Uint8Array, charset: string): string {
  return new TextDecoder(charset).decode(bytes);
}
