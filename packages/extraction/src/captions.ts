import { classWords } from './boilerplate.ts';
import { closestNamed, elementsWithAttribute, firstNamed, HEADINGS, tagSet } from './elements.ts';

/**
 * Image captions and credits, however a page marks them up (`<figcaption>`, `<p class="wp-caption-text">`,
 * `<span class="image-credit">`), become `<figcaption>`: every output can then tell a caption from body text.
 * The HTML and PDF keep them under their images; the plain text, which has no images, leaves them out with them
 * unless they are all the words it has besides headings (a gallery: `nodeToText`).
 */
const CAPTION_WORDS = new Set(['caption', 'captions', 'credit', 'credits', 'figcaption']);
/** What a caption never holds: the media it describes, or structure of its own. */
const NOT_IN_A_CAPTION = tagSet('img', 'picture', 'video', 'audio', 'iframe', 'svg', 'figure', 'table', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6');
const FIGURE = tagSet('figure');
/**
 * A heading names what follows it, whatever its class says of its type size (Etsy's listing titles are
 * `h2.wt-text-caption`): it is a caption only inside a figure, or where its class says it captions a picture
 * (`awb-imageframe-caption-title`).
 */
const MEDIA_WORDS = new Set(['image', 'images', 'img', 'imageframe', 'photo', 'photos', 'picture', 'figure', 'media', 'gallery', 'video']);
const FIGCAPTION = tagSet('figcaption');
/** Elements that cannot become a figcaption where they stand (table parts, list items). */
const FIXED_PLACE = new Set(['figcaption', 'figure', 'caption', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'li', 'dt', 'dd', 'body', 'article', 'main']);
const MAX_CAPTION_LENGTH = 600;

export function markCaptions(root: Element): void {
  for (const element of elementsWithAttribute(root, ['class', 'id'])) {
    if (isCaption(element, classWords(element))) toFigcaption(element);
  }
}

/** A short, media-free element whose class or id says caption or credit (or copyright, inside a figure). */
export function isCaption(element: Element, words: string[]): boolean {
  if (FIXED_PLACE.has(element.localName) || words.length === 0) return false;
  const named = words.some((word) => CAPTION_WORDS.has(word)) ||
    (words.includes('copyright') && closestNamed(element, FIGURE) !== null);
  if (!named || (element.parentElement && closestNamed(element.parentElement, FIGCAPTION))) return false;
  if (HEADINGS.has(element.localName) && !words.some((word) => MEDIA_WORDS.has(word)) && closestNamed(element, FIGURE) === null) return false;
  if (firstNamed(element, NOT_IN_A_CAPTION)) return false;
  return (element.textContent ?? '').length <= MAX_CAPTION_LENGTH;
}

export function toFigcaption(element: Element): void {
  const caption = element.ownerDocument.createElement('figcaption');
  while (element.firstChild) caption.appendChild(element.firstChild);
  element.replaceWith(caption);
}
