/**
 * Which addresses may stay in article HTML, and how relative ones become absolute.
 *
 * Two kinds of address are told apart because they are dangerous in different ways:
 * - a *link* (`<a href>`, `cite`) is followed by a reader: it may be http(s), mailto or tel, never a script or a
 *   document carried in the address itself (`javascript:`, `vbscript:`, `data:text/html`);
 * - a *resource* (`<img src>`, `srcset`, `poster`, SVG `<image href>`) is loaded while rendering: http(s) only, plus
 *   `data:image/*` where the brief allows it (an image element cannot run script, whatever its bytes).
 * Everything else is dropped. Browsers strip ASCII tab and newline anywhere in an address and leading/trailing C0
 * controls and spaces, so `jav&#9;ascript:` is judged after the same clean-up (the WHATWG URL parser does it).
 */

export type UrlKind = 'link' | 'resource' | 'image';

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const RESOURCE_SCHEMES = new Set(['http:', 'https:']);
/** `data:image/<subtype>` followed by parameters or the comma: any image type, nothing else. */
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+[;,]/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** What a URL looks like after the clean-up browsers apply before they parse it. */
function browserClean(raw: string): string {
  return raw.replace(/[\t\n\r]/g, '').replace(C0_OR_SPACE_AT_ENDS, '');
}

/**
 * Leading and trailing C0 controls and spaces, which the URL parser strips. The lookbehind lets the trailing match
 * start only where a run starts: without it a long run inside an address was tried again from every character
 * (60 KB of spaces in an href took 3.4 s).
 */
const C0_OR_SPACE_AT_ENDS = /^[\u0000-\u0020]+|(?<![\u0000-\u0020])[\u0000-\u0020]+$/g;

/**
 * A base for resolving relative addresses: only an absolute http(s) URL qualifies (resolving `#x` against a
 * `javascript:` base would produce a `javascript:` URL). Anything else means "no base".
 */
export function parseBase(baseUrl: string | null | undefined): URL | null {
  if (!baseUrl) return null;
  try {
    const base = new URL(baseUrl);
    return RESOURCE_SCHEMES.has(base.protocol) ? base : null;
  } catch {
    return null;
  }
}

/**
 * The address to keep for `raw` used as `kind`, resolved against `base` when it is relative; `null` when the address
 * must go. Fragment-only links (`#note-1`) stay as they are: they point into the article itself.
 */
export function safeUrl(raw: string, kind: UrlKind, base: URL | null): string | null {
  const value = browserClean(raw);
  if (value === '') return null;
  if (kind === 'link' && value.startsWith('#')) return value;
  if (HAS_SCHEME.test(value)) {
    if (kind === 'image' && DATA_IMAGE.test(value)) return value;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    const allowed = kind === 'link' ? LINK_SCHEMES : RESOURCE_SCHEMES;
    return allowed.has(url.protocol) ? url.href : null;
  }
  // Relative: absolute against the base when there is one, otherwise kept as written (inert in a page of its own).
  if (!base) return value;
  try {
    const url = new URL(value, base);
    return RESOURCE_SCHEMES.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** How each address-bearing attribute is judged; `srcset` has its own path. */
export function urlKind(attribute: string, tag: string): UrlKind | null {
  switch (attribute) {
    case 'href':
    case 'xlink:href':
      return tag === 'image' ? 'image' : 'link';
    case 'cite':
      return 'link';
    case 'src':
      return tag === 'img' ? 'image' : 'resource';
    case 'poster':
    case 'background':
      return 'image';
    default:
      return null;
  }
}

interface SrcsetCandidate {
  url: string;
  descriptor: string;
}

/**
 * Splits a `srcset` the way the HTML standard does: an address runs to the next whitespace (a trailing comma ends
 * it), then an optional descriptor runs to the next comma.
 */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  const n = srcset.length;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= n) break;
    let start = i;
    while (i < n && !isSpace(srcset[i])) i++;
    let url = srcset.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/(?<!,),+$/, ''); // the lookbehind keeps a long run of commas inside the address linear
    } else {
      start = i;
      let depth = 0;
      while (i < n && (srcset[i] !== ',' || depth > 0)) {
        if (srcset[i] === '(') depth++;
        else if (srcset[i] === ')') depth = Math.max(0, depth - 1);
        i++;
      }
      descriptor = srcset.slice(start, i).trim();
    }
    if (url) candidates.push({ url, descriptor });
  }
  return candidates;
}

/** A `srcset` keeping only candidates whose address is a safe resource, resolved; `null` when none is left. */
export function safeSrcset(srcset: string, base: URL | null): string | null {
  const kept: string[] = [];
  for (const { url, descriptor } of parseSrcset(srcset)) {
    // A descriptor is a width (`640w`), a density (`2x`) or a height (`480h`); anything else spoils the candidate.
    if (descriptor && !/^((\d*\.)?\d+(e[+-]?\d+)?[wxh]\s*)+$/i.test(descriptor)) continue;
    const safe = safeUrl(url, 'resource', base);
    if (safe === null || /[\s,]/.test(safe)) continue;
    kept.push(descriptor ? `${safe} ${descriptor}` : safe);
  }
  return kept.length > 0 ? kept.join(', ') : null;
}
