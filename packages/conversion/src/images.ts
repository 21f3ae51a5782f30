import { serialize, type DefaultTreeAdapterMap } from 'parse5';
import { plainMarkupBody, sanitizeHtml } from '@folio/article-html';
import { parseBodyTree } from '@folio/dom';
import { loadEach } from '@folio/docx-output';
import type { PageFetcher } from '@folio/page-fetch';

/** An image whose bytes arrived and are an image a browser shows, with the media type they are. */
export interface ArrivedImage {
  data: Buffer;
  mediaType: string;
}

export interface SettledImages {
  /** The article's markup without the images that never arrived, each kept one showing the address it was fetched from. */
  contentHtml: string;
  /** The bytes of every image kept, by that address. */
  images: ReadonlyMap<string, ArrivedImage>;
}

export interface SettleOptions {
  fetchImage: PageFetcher['fetchImage'] | undefined;
  /**
   * Put the bytes in the markup as `data:` addresses (the page the pdf is printed from), so that the browser shows the
   * very bytes decided on instead of fetching them again and perhaps failing where this fetch did not.
   */
  inline: boolean;
  /** How many fetches run at once: enough to hide latency, few enough to be polite to one origin. */
  concurrency?: number;
  /** How long all fetches together may take; what has not arrived by then is dropped (the 27 s ceiling). */
  budgetMs?: number;
  /** Beyond this many bytes inlined, images keep their address and the browser fetches them. */
  maxInlineBytes?: number;
}

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_BUDGET_MS = 10_000;
const DEFAULT_MAX_INLINE_BYTES = 32 * 1024 * 1024;
/** Stands in for a `data:` address while the markup is sanitised again; only addresses minted here take this form. */
const INLINE_PLACEHOLDER = 'https://folio-inline-image.invalid/';

/**
 * The one decision the html, pdf and docx outputs share about an article's images: an image whose bytes never
 * arrived — refused by the network rule, 404, too slow, not an image — is dropped, its caption kept, rather than
 * printed as the browser's broken-image glyph beside alt text that usually repeats the caption. Each image is fetched
 * once (through the private-network rule) and each kept one shows exactly the address fetched: `srcset`, `sizes` and
 * a `<picture>`'s other sources go, since the browser could choose one of them and fail on it. `data:` images are
 * left as they are.
 *
 * The markup changed here was sanitised already; it is sanitised again after the change (`sanitizedAgain`), so nothing
 * in it escapes the sanitiser however the removal reshapes it.
 */
export async function settleImages(contentHtml: string, options: SettleOptions): Promise<SettledImages> {
  // Without a fetcher (an engine built without the network) nothing was tried, so nothing is decided.
  const fetchImage = options.fetchImage;
  if (!fetchImage || !/<img\b/i.test(contentHtml)) return { contentHtml, images: new Map() };
  // parse5, the parser inside jsdom, builds the tree a browser would; its plain objects are all this needs, at a
  // fraction of a jsdom document's cost.
  const body = parseBodyTree(contentHtml);
  if (!body) return { contentHtml, images: new Map() };
  const shown = imagesIn(body).map((img) => ({ img, source: shownAddress(img) }));
  const images = await fetchAll(
    shown.flatMap(({ source }) => (source !== null && !isData(source) ? [source] : [])),
    fetchImage,
    options,
  );

  let changed = false;
  let inlined = 0;
  const inlineAt = new Map<string, string>();
  for (const { img, source } of shown) {
    if (source !== null && isData(source)) continue;
    const image = source === null ? undefined : images.get(source);
    if (source === null || image === undefined) {
      drop(img);
      changed = true;
      continue;
    }
    let address = source;
    if (options.inline && inlined + image.data.byteLength <= (options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES)) {
      if (!inlineAt.has(source)) {
        inlineAt.set(source, `${INLINE_PLACEHOLDER}${inlineAt.size}`);
        inlined += image.data.byteLength;
      }
      address = inlineAt.get(source)!;
    }
    changed = showOnly(img, address) || changed;
  }
  if (!changed) return { contentHtml, images };

  let html = sanitizedAgain(serialize(body));
  for (const [source, placeholder] of inlineAt) {
    const image = images.get(source)!;
    html = html.replaceAll(`"${placeholder}"`, `"data:${image.mediaType};base64,${image.data.toString('base64')}"`);
  }
  return { contentHtml: html, images };
}

/**
 * The changed markup through the sanitiser once more (DOMPurify's own advice for markup changed after sanitising).
 * Markup as plain as most articles' takes the sanitiser's fast path (`plainMarkupBody`: parse5 and the same rules,
 * held to DOMPurify's output by property tests and DOMPurify's own vectors); anything else goes through DOMPurify.
 */
function sanitizedAgain(html: string): string {
  return plainMarkupBody(html)?.html() ?? sanitizeHtml(html, { baseUrl: null });
}

type Node = DefaultTreeAdapterMap['node'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

function isElement(node: Node | null): node is Element {
  return node !== null && 'tagName' in node;
}

/** Every `<img>` under `root`, in document order. */
function imagesIn(root: Element): Element[] {
  const found: Element[] = [];
  const visit = (node: Element) => {
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      if (child.tagName === 'img') found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((a) => a.name === name)?.value ?? null;
}

function removeNode(node: ChildNode): void {
  const parent = node.parentNode;
  if (!parent) return;
  parent.childNodes.splice(parent.childNodes.indexOf(node), 1);
  node.parentNode = null;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return isElement(node) ? node.childNodes.map(textOf).join('') : '';
}

/** The address an `<img>` shows: its `src`, or the first candidate of its `srcset` when it has no `src`. */
function shownAddress(img: Element): string | null {
  const written = attribute(img, 'src')?.trim() || attribute(img, 'srcset')?.trim().split(/\s+/)[0]?.replace(/,$/, '');
  return written || null;
}

function isData(address: string): boolean {
  return /^data:/i.test(address);
}

/** Makes the image show `address` and nothing the browser could pick instead; whether anything changed. */
function showOnly(img: Element, address: string): boolean {
  const src = img.attrs.find((a) => a.name === 'src');
  let changed = src?.value !== address;
  if (src) src.value = address;
  else img.attrs.push({ name: 'src', value: address });
  const kept = img.attrs.filter((a) => a.name !== 'srcset' && a.name !== 'sizes');
  if (kept.length !== img.attrs.length) {
    img.attrs = kept;
    changed = true;
  }
  const parent = img.parentNode;
  if (isElement(parent) && parent.tagName === 'picture') {
    for (const source of parent.childNodes.filter((child) => isElement(child) && child.tagName === 'source')) {
      removeNode(source);
      changed = true;
    }
  }
  return changed;
}

/** Removes an image, and the picture or link that held nothing else; a figure keeps its caption. */
function drop(img: Element): void {
  let gone: Element = img;
  for (let parent = img.parentNode; isElement(parent) && ['picture', 'a'].includes(parent.tagName); parent = parent.parentNode) {
    const rest = parent.childNodes.filter((node) => node !== gone && !(node.nodeName === '#text' && !textOf(node).trim()));
    if (!rest.every((node) => isElement(node) && node.tagName === 'source')) break;
    gone = parent;
  }
  const holder = gone.parentNode;
  removeNode(gone);
  if (isElement(holder) && holder.tagName === 'figure' && !textOf(holder).trim() && !holdsMedia(holder)) removeNode(holder);
}

function holdsMedia(element: Element): boolean {
  return element.childNodes.some((child) => isElement(child) && (MEDIA.has(child.tagName) || holdsMedia(child)));
}

const MEDIA = new Set(['img', 'picture', 'video', 'audio', 'svg', 'table']);

/** Fetches every distinct address once, a few at a time, within the budget; the images that arrived, by address. */
async function fetchAll(
  addresses: string[],
  fetchImage: PageFetcher['fetchImage'],
  options: SettleOptions,
): Promise<Map<string, ArrivedImage>> {
  const budget = { concurrency: options.concurrency ?? DEFAULT_CONCURRENCY, budgetMs: options.budgetMs ?? DEFAULT_BUDGET_MS };
  const outcomes = await loadEach(
    addresses,
    budget,
    async (address, deadline): Promise<ArrivedImage | null> => {
      const fetched = await Promise.race([fetchImage(address).catch(() => null), deadline]);
      const mediaType = fetched && fetched !== 'late' ? imageType(fetched.data) : null;
      return fetched && fetched !== 'late' && mediaType ? { data: fetched.data, mediaType } : null;
    },
    null,
  );
  return new Map([...outcomes].filter((entry): entry is [string, ArrivedImage] => entry[1] !== null));
}

/**
 * What image the bytes are, by their signature, among those a browser shows; null for anything else (an error page
 * served as image/png, a truncated file), which would print as a broken image. A server's Content-Type is not trusted.
 */
export function imageType(data: Uint8Array): string | null {
  const at = (offset: number, ...bytes: number[]) => bytes.every((byte, i) => data[offset + i] === byte);
  const ascii = (offset: number, length: number) => String.fromCharCode(...data.subarray(offset, offset + length));
  if (data.length < 12) return null;
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return 'image/webp';
  if (ascii(4, 4) === 'ftyp' && /^(avif|avis)$/.test(ascii(8, 4))) return 'image/avif';
  if (at(0, 0x42, 0x4d)) return 'image/bmp';
  if (at(0, 0x00, 0x00, 0x01, 0x00)) return 'image/x-icon';
  // SVG is text: its root element, after an XML declaration, comments or a doctype, within the first kilobyte.
  const head = new TextDecoder().decode(data.subarray(0, 1024)).replace(/^\uFEFF/, '');
  if (opensSvg(head)) return 'image/svg+xml';
  return null;
}

/**
 * Whether text opens with an `<svg>` root, after an XML declaration, then comments and an SVG doctype, with whitespace
 * between. A scan, each part ended at its first end, as a parser ends it: the one regular expression that said this
 * before let comments and doctypes overlap, and backtracked exponentially on a run of them (435 bytes took 55 s, and
 * an image's bytes are anyone's to choose).
 */
export function opensSvg(head: string): boolean {
  let at = 0;
  const skipSpace = () => {
    while (at < head.length && /\s/.test(head[at]!)) at++;
  };
  const past = (end: string, from: number) => {
    const found = head.indexOf(end, from);
    if (found < 0) return false;
    at = found + end.length;
    skipSpace();
    return true;
  };
  skipSpace();
  if (head.startsWith('<?xml', at) && !past('>', at)) return false;
  for (;;) {
    if (head.startsWith('<!--', at)) {
      if (!past('-->', at + 4)) return false;
    } else if (head.slice(at, at + 13).toLowerCase() === '<!doctype svg') {
      if (!past('>', at)) return false;
    } else {
      return /^<svg[\s>]/i.test(head.slice(at, at + 5));
    }
  }
}
