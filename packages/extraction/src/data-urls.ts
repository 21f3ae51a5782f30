import { randomBytes } from 'node:crypto';

/**
 * jsdom spends most of an extraction parsing `data:` image addresses (a heavy page: ≈110 ms with them, ≈15 ms
 * without). Long ones are set aside before parsing and put back into the output: the DOM only ever sees a short
 * placeholder that is still a `data:` address, so every rule that looks at the scheme (lazy-image resolution, a
 * sanitiser) decides about it exactly as it would about the original.
 */
export interface DataUrlStash {
  /** The HTML with long `data:` addresses replaced by placeholders. */
  html: string;
  /** Puts the originals back into serialized HTML (attribute values stay well-formed). */
  restoreHtml(html: string): string;
  /** Puts the original back into a plain string (an address read from an attribute). */
  restoreText(value: string): string;
  /** Whether a placeholder stands for a data address. */
  isPlaceholder(value: string): boolean;
}

/** Shorter addresses (spacer GIFs, tiny SVGs) cost nothing to parse and are left in place. */
const MIN_LENGTH = 256;

/** A quoted attribute value that is, or a CSS `url()` that holds, a `data:` address. */
const DATA_URL = /(=\s*)(?:"(\s*data:[^"]*)"|'(\s*data:[^']*)')|(url\(\s*)(["']?)(data:[^"')]*)/gi;

export function stashDataUrls(html: string): DataUrlStash {
  const originals: string[] = [];
  const nonce = randomBytes(6).toString('hex');
  const prefix = `data:x-folio-${nonce}/`;
  const placeholder = (value: string) => `${prefix}${originals.push(value) - 1};`;
  const stashed = html.indexOf('data:') === -1
    ? html
    : html.replace(DATA_URL, (match, eq, double, single, url, quote, css) => {
        if (eq !== undefined) {
          const value = (double ?? single) as string;
          if (value.length < MIN_LENGTH) return match;
          const q = double !== undefined ? '"' : "'";
          return `${eq}${q}${placeholder(value.trim())}${q}`;
        }
        if ((css as string).length < MIN_LENGTH) return match;
        return `${url}${quote}${placeholder(css)}`;
      });
  const pattern = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\d+);`, 'g');
  const lookup = (index: string) => originals[Number(index)];
  return {
    html: stashed,
    restoreHtml: (out) =>
      originals.length === 0
        ? out
        : out.replace(pattern, (m, i: string) => lookup(i)?.replace(/"/g, '&quot;') ?? m),
    restoreText: (value) =>
      originals.length === 0 ? value : value.replace(pattern, (m, i: string) => decodeAttribute(lookup(i) ?? m)),
    isPlaceholder: (value) => value.startsWith(prefix),
  };
}

/** The few character references an address in an attribute value carries. */
function decodeAttribute(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);?/gi, (m, ref: string) => {
    const r = ref.toLowerCase();
    if (r.startsWith('#x')) return String.fromCodePoint(Number.parseInt(r.slice(2), 16));
    if (r.startsWith('#')) return String.fromCodePoint(Number(r.slice(1)));
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[r] ?? m;
  });
}
