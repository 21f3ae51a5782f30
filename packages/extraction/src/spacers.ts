import { elementsNamed, firstNamed, tagSet } from './elements.ts';

/**
 * Paragraphs and headings with nothing in them but space a page builder puts there for spacing: an empty paragraph
 * holding a zero-width joiner (Webflow's rich text writes one in every blank line), a no-break space, a lone `<br>`.
 * A browser draws them as gaps; in a document they print as blank lines between paragraphs and headings.
 * JavaScript's `trim()` does not count the zero-width characters as space, so nothing upstream drops them.
 */
const SPACERS = tagSet('p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6');
const CONTENT = tagSet('img', 'picture', 'video', 'audio', 'iframe', 'svg', 'canvas', 'object', 'embed', 'input', 'math');
/** `\s` covers the no-break space and the byte-order mark; the zero-width space, joiners and word joiner it does not. */
const BLANK = /^[\s\u200b-\u200d\u2060]*$/;

export function removeSpacers(content: Element): void {
  for (const element of elementsNamed(content, SPACERS)) {
    if (BLANK.test(element.textContent ?? '') && !firstNamed(element, CONTENT)) element.remove();
  }
}
