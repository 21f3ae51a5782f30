import { closestNamed, elementsNamed, tagSet } from './elements.ts';
import { lowerCaseWords, normalisedText } from './text-measure.ts';

/**
 * Text no reader reads, however long it is: one word or phrase printed over and over (a button's label a hundred
 * times over, a template's "word word word" placeholder), and a keyword block, a long run of names or numbers
 * without a single mark of punctuation (the towns and ZIP codes a service page lists for search engines). Prose
 * punctuates and varies its words; a list's items and a table's cells are elements of their own, so only a block
 * whose text is one run (text and inline elements, no line breaks) is asked, never code.
 */
const BLOCKS = tagSet('p', 'div', 'span', 'li', 'td', 'section');
const INLINE = tagSet('a', 'span', 'b', 'strong', 'em', 'i', 'small', 'font', 'abbr');
const CODE = tagSet('pre', 'code');
/** A run this long whose distinct words are at most REPEATED_DISTINCT_SHARE of its words says one thing again and again. */
const REPEATED_MIN_WORDS = 30;
const REPEATED_DISTINCT_SHARE = 0.1;
/** A run this long with no punctuation at all is a list of keywords, not a sentence. */
const KEYWORDS_MIN_WORDS = 100;
const PUNCTUATION = /[.,;:!?¿¡…。、，،؛]/;

export function removeFiller(root: Element): void {
  for (const block of elementsNamed(root, BLOCKS)) {
    if (!root.contains(block) || !isOneRun(block) || closestNamed(block, CODE)) continue;
    const text = normalisedText(block);
    if (isFiller(text)) block.remove();
  }
}

/** Whether a run of text is filler (`removeFiller`). */
export function isFiller(text: string): boolean {
  const words = lowerCaseWords(text);
  if (words.length >= REPEATED_MIN_WORDS && new Set(words).size <= words.length * REPEATED_DISTINCT_SHARE) return true;
  return words.length >= KEYWORDS_MIN_WORDS && !PUNCTUATION.test(text);
}

/** Whether every element inside `block` is inline; stops at the first that is not (a container's first block child). */
function isOneRun(block: Element): boolean {
  for (let child = block.firstElementChild; child; child = child.nextElementSibling) {
    if (!INLINE.has(child.localName) || !isOneRun(child)) return false;
  }
  return true;
}
