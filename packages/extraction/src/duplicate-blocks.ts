import { lowerCaseWords } from './text-measure.ts';
import { tagSet } from './elements.ts';

/**
 * A part of the content printed again, word for word: a site builder's responsive variants (the same section once
 * for each screen width, all but one hidden by the page's media queries), a product's description both in its summary
 * and in a tab, a post printed twice by a theme. The reader meets it twice; the later copy goes, whole, with its
 * headings and images. A copy is a block holding other blocks, at least two lines in a row, or a line right after the
 * line it repeats; a single line printed again among lines of its own is part of what surrounds it (a meal plan's repeated dish, the line of description
 * cards of one grid share). Only text long enough to be a statement counts. A table cell and code are never looked
 * into, and a list item only for a passage of several blocks (a plan's features repeat from column to column, a
 * command from step to step); a whole list or table printed again counts as one line.
 */
const MIN_WORDS = 12;
/** A line (a block without blocks inside) must be longer to count at all. */
const MIN_LINE_WORDS = 25;
/** Blocks that go when printed again. */
const BLOCKS = tagSet('p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'figure', 'blockquote', 'ul', 'ol', 'dl', 'table',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6');
/** Looked into for copies no further: their parts belong to them. */
const WHOLE = tagSet('li', 'dd', 'dt', 'table', 'pre', 'code', 'figure');
/**
 * Of those, parts that may be a thread's posts or a feed's entries: looked into for a passage of several blocks and
 * 25 words or more printed again, such as a reply's preview of the post it answers (NodeBB prints the whole earlier
 * post there, clamped to a line by its CSS). A plan's features, lines of their own, still repeat freely.
 */
const ENTRIES = tagSet('li', 'dd');

/** The words a block needs to count as a copy: inside an entry only a passage of several blocks counts (`ENTRIES`). */
function leastWords(holdsBlocks: boolean, inEntry: boolean): number {
  if (inEntry) return holdsBlocks ? MIN_LINE_WORDS : Infinity;
  return holdsBlocks ? MIN_WORDS : MIN_LINE_WORDS;
}

/** Removes the copies; true when there were any. */
export function removeDuplicateBlocks(content: Element): boolean {
  const seen = new Map<string, Element>();
  /** Each copy, in document order, with the block it repeats. */
  const originals = new Map<Element, Element>();
  const visit = (parent: Element, inEntry: boolean) => {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      if (BLOCKS.has(child.localName) || WHOLE.has(child.localName)) {
        const words = lowerCaseWords(child.textContent ?? '');
        if (words.length >= leastWords(holdsBlocks(child), inEntry)) {
          const key = words.join(' ');
          const first = seen.get(key);
          // The first holder may be an ancestor with no other text (a wrapper around this block): that is one copy.
          if (first && !first.contains(child) && BLOCKS.has(child.localName)) {
            originals.set(child, first);
            continue;
          }
          if (!first) seen.set(key, child);
        }
      }
      const entry = ENTRIES.has(child.localName);
      if ((entry || !WHOLE.has(child.localName)) && child.firstElementChild) visit(child, inEntry || entry);
    }
  };
  visit(content, false);
  const besideCopy = (line: Element) => [line.previousElementSibling, line.nextElementSibling].some((e) => e !== null && originals.has(e));
  // A line right after the line it repeats is printed twice in a row: no writer does that, a responsive theme does.
  const afterItself = (line: Element) => line.previousElementSibling?.contains(originals.get(line)!) === true;
  const removed = [...originals.keys()].filter((c) => holdsBlocks(c) || besideCopy(c) || afterItself(c));
  for (const copy of removed) copy.remove();
  return removed.length > 0;
}

function holdsBlocks(element: Element): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (BLOCKS.has(child.localName)) return true;
  return false;
}
