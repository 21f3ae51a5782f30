import { baseAddress } from '@folio/dom';
import { closestNamed, elementsNamed, firstNamed, tagSet } from './elements.ts';

/**
 * Lazy-loaded images keep their real address in an attribute a script would copy into `src` on scroll; with no
 * script running, the page is left with a spacer or nothing. Resolving them before Readability runs keeps the
 * images in the article (Readability drops an `<img>` it thinks has no source) and gives every output a real,
 * absolute `src`.
 */

/**
 * Attributes lazy loaders use for the real address, most specific first. Loosely named ones (`data-url`,
 * `data-image`) are left to guessedImageAttribute, which wants the value to look like an image.
 */
const SRC_ATTRIBUTES = [
  'data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-hi-res-src', 'data-full-src', 'data-orig-src',
  'data-actualsrc', 'data-echo', 'data-img-src', 'data-lazyload', 'data-original-src', 'data-srcdefault',
  'data-default-src', 'data-native-src',
];
const IMG = tagSet('img');
const SOURCE = tagSet('source');
const NOSCRIPT = tagSet('noscript');
const IMAGES_AND_FALLBACKS = tagSet('img', 'noscript', 'source');
const SRCSET_ATTRIBUTES = ['data-srcset', 'data-lazy-srcset', 'data-original-srcset', 'data-sizes-srcset'];

const IMAGE_PATH = /\.(?:jpe?g|png|webp|gif|avif|svg)(?:$|[?#&])/i;
/** `src` values that only hold a place: spacer files and the usual loader names. */
const PLACEHOLDER_SRC = /(?:^|[/_.-])(?:blank|spacer|pixel|transparent|placeholder|lazy|loader|loading|grey|gray|empty|1x1)(?:[._-]|$)/i;

export interface ImageContext {
  /** Whether a `data:` value is a stashed long data address (a real image, not a spacer). */
  isStashedData(value: string): boolean;
}

export function resolveLazyImages(document: Document, context: ImageContext): void {
  const base = baseAddress(document);
  // One walk for all three kinds (each query is a full walk of the page in jsdom).
  const found = elementsNamed(document, IMAGES_AND_FALLBACKS);
  unwrapNoscriptImages(found.filter((e) => e.localName === 'noscript'));
  for (const element of found) {
    if (element.localName === 'img') {
      if (element.isConnected) resolveImage(element, base, context);
    } else if (element.localName === 'source' && element.parentElement?.localName === 'picture') {
      const lazy = firstAttribute(element, SRCSET_ATTRIBUTES);
      if (lazy && !element.getAttribute('srcset')) element.setAttribute('srcset', lazy);
      const srcset = element.getAttribute('srcset');
      if (srcset) element.setAttribute('srcset', absoluteSrcset(srcset, base));
    }
  }
}

function resolveImage(img: Element, base: string, context: ImageContext): void {
  const src = img.getAttribute('src')?.trim() ?? '';
  const lazySrc = firstAttribute(img, SRC_ATTRIBUTES) ?? guessedImageAttribute(img);
  const lazySrcset = firstAttribute(img, SRCSET_ATTRIBUTES);
  if (lazySrcset) img.setAttribute('srcset', lazySrcset);
  const srcset = img.getAttribute('srcset')?.trim() ?? '';
  const srcIsReal = src !== '' && !isPlaceholder(src, context);
  let chosen = srcIsReal ? src : '';
  // What the loader would have swapped in wins over what it would have replaced.
  if (lazySrc && !/^data:/i.test(lazySrc)) chosen = lazySrc;
  if (!chosen) chosen = largestCandidate(srcset) ?? fromPicture(img) ?? '';
  if (!chosen) return;
  img.setAttribute('src', absolute(chosen, base));
  if (srcset) {
    const absoluteSet = absoluteSrcset(srcset, base);
    // A srcset of placeholders would override the real `src` in a browser: drop it.
    if (/^\s*data:/i.test(srcset) && !context.isStashedData(srcset.trim())) img.removeAttribute('srcset');
    else img.setAttribute('srcset', absoluteSet);
  }
}

/** A `data:` spacer, a blank file name, or nothing. Stashed long data addresses are real images. */
function isPlaceholder(src: string, context: ImageContext): boolean {
  if (/^data:/i.test(src)) return !context.isStashedData(src);
  if (/^about:|^javascript:/i.test(src)) return true;
  const path = src.split(/[?#]/)[0] ?? '';
  return PLACEHOLDER_SRC.test(path.slice(path.lastIndexOf('/') + 1)) || PLACEHOLDER_SRC.test(path);
}

function firstAttribute(element: Element, names: string[]): string | null {
  for (const name of names) {
    const value = element.getAttribute(name)?.trim();
    if (value && !/^(?:null|undefined|#)$/i.test(value)) return value;
  }
  return null;
}

/** Any other `data-*` attribute holding one image address (lazy loaders name it as they like). */
function guessedImageAttribute(img: Element): string | null {
  for (const attr of Array.from(img.attributes)) {
    if (!attr.name.startsWith('data-')) continue;
    const value = attr.value.trim();
    if (/^\S+$/.test(value) && IMAGE_PATH.test(value) && !/srcset/i.test(attr.name)) return value;
  }
  return null;
}

/** The widest (or highest-density) candidate of a srcset. */
export function largestCandidate(srcset: string): string | null {
  let best: { url: string; size: number } | null = null;
  for (const candidate of parseSrcset(srcset)) {
    if (!best || candidate.size > best.size) best = candidate;
  }
  return best?.url ?? null;
}

function fromPicture(img: Element): string | null {
  const picture = img.parentElement;
  if (picture?.localName !== 'picture') return null;
  for (const source of elementsNamed(picture, SOURCE)) {
    const srcset = source.getAttribute('srcset') ?? firstAttribute(source, SRCSET_ATTRIBUTES);
    const url = srcset ? largestCandidate(srcset) : null;
    if (url && !url.startsWith('data:')) return url;
  }
  return null;
}

interface Candidate {
  url: string;
  size: number;
}

/** Splits a srcset into its candidates; commas inside an address (e.g. CDN parameters) stay with the address. */
function parseSrcset(srcset: string): Candidate[] {
  const candidates: Candidate[] = [];
  const pattern = /\s*(\S+?)(?:\s+([\d.]+)([wxh]))?\s*(?:,|$)/g;
  for (const match of srcset.matchAll(pattern)) {
    const url = match[1];
    if (!url) continue;
    const size = match[2] ? Number(match[2]) * (match[3] === 'x' ? 1000 : 1) : 1;
    candidates.push({ url, size });
  }
  return candidates;
}

function absoluteSrcset(srcset: string, base: string): string {
  return srcset.replace(/(^|,)(\s*)(\S+)/g, (m, sep: string, ws: string, url: string) =>
    url.startsWith('data:') ? m : `${sep}${ws}${absolute(url, base)}`,
  );
}

export function absolute(url: string, base: string): string {
  if (/^data:/i.test(url)) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * `<noscript>` fallbacks: jsdom (scripting off) parses their markup, so the real `<img>` is there. It replaces
 * the placeholder image just before it, or stands in its place when there is none.
 */
function unwrapNoscriptImages(noscripts: Element[]): void {
  // Whether a parent shows an image of its own, asked once a parent: asking again for each fallback walked the parent
  // each time (a gallery of 5,000 fallbacks in one container took 89 s). Within this loop the answer only turns from
  // no to yes, when a fallback's image takes its `<noscript>`'s place, and then for every ancestor of that place.
  const showsImage = new Map<Element, boolean>();
  const shows = (element: Element | null): boolean => {
    if (!element) return false;
    let known = showsImage.get(element);
    if (known === undefined) showsImage.set(element, (known = hasVisibleImage(element)));
    return known;
  };
  for (const noscript of noscripts) {
    const images = elementsNamed(noscript, IMG);
    if (images.length !== 1 || (noscript.textContent ?? '').trim() !== '') continue;
    const image = images[0]!;
    if (!image.getAttribute('src') && !image.getAttribute('srcset')) continue;
    const previous = noscript.previousElementSibling;
    const placeholder = previous?.localName === 'img'
      ? previous
      // (One child element, asked of its siblings: reading `childElementCount` makes jsdom track that element's children.)
      : previous && previous.firstElementChild?.localName === 'img' && !previous.firstElementChild.nextElementSibling &&
          (previous.textContent ?? '').trim() === ''
        ? previous.firstElementChild
        : null;
    if (placeholder) placeholder.replaceWith(image);
    else if (!shows(noscript.parentElement)) {
      noscript.replaceWith(image);
      for (let shown = image.parentElement; shown; shown = shown.parentElement) showsImage.set(shown, true);
    }
    if (noscript.isConnected && firstNamed(noscript, IMG) === null) noscript.remove();
  }
}

/** Whether an element shows an image of its own (one not inside a `<noscript>`). */
function hasVisibleImage(element: Element | null): boolean {
  if (!element) return false;
  return elementsNamed(element, IMG).some((img) => closestNamed(img, NOSCRIPT) === null);
}
