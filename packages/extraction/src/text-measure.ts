import { elementsNamed, tagSet } from './elements.ts';

/** Text measures shared by the cleanup rules: counted without whitespace, so markup indentation weighs nothing. */

export function textLength(node: Node): number {
  let length = 0;
  const walk = (n: Node) => {
    for (let child = n.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) length += nonSpace((child as Text).data);
      else if (child.nodeType === 1 && !INVISIBLE.has((child as Element).localName)) walk(child);
    }
  };
  walk(node);
  return length;
}

/** Share of an element's text that sits inside links (0 when it has no text). */
export function linkDensity(element: Element): number {
  const total = textLength(element);
  if (total === 0) return 0;
  let links = 0;
  for (const a of elementsNamed(element, LINKS)) links += textLength(a);
  return Math.min(1, links / total);
}

/** Runs of letters and digits: the words text is compared by (a coarser count than words.ts's reader's words). */
const WORD = /[\p{L}\p{N}]+/gu;

export function words(element: Element | string): number {
  const text = typeof element === 'string' ? element : (element.textContent ?? '');
  return text.match(WORD)?.length ?? 0;
}

/** A text's words, lower-cased, in order, for comparing one text with another. */
export function lowerCaseWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export function normalisedText(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const LINKS = tagSet('a');
/** Elements whose text a reader never sees: counted as none. */
export const INVISIBLE: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template']);

export function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) n++;
  }
  return n;
}
