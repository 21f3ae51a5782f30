import { elementsWithAttribute } from './elements.ts';

/**
 * Text a page writes twice, once for the eye and once for screen readers: a price "EUR 163.12" with a visually
 * hidden "EUR 163.12" inside it, a card's title beside its clipped copy. CSS hides the copy (`sr-only`,
 * `visually-hidden`, `screen-reader-text`, `clipped` …), which is not read here, so every output would read
 * "EUR 163.12EUR 163.12". A visually hidden element goes when what it says is said right beside it: the rest of its
 * parent, or the element next to it, reads the same. A screen reader's copy that says something of its own ("Rating:",
 * "opens in a new window", a label for an icon) stays: it is the only place that text is.
 */
const VISUALLY_HIDDEN = /^(?:[a-z]+-)?(?:sr-only|sr-text|visually-?hidden|visually_hidden|screen-?reader(?:-(?:text|only))?|a11y-(?:hidden|only|text)|assistive-text|hidden-visually|element-invisible|clipped)$/i;

/** How many copies were removed. */
export function removeScreenReaderTwins(root: Element): number {
  let removed = 0;
  // A parent's text is measured once: thousands of copies in one parent must not each read all of it.
  const lengths = new Map<Element, number>();
  const lengthOf = (parent: Element) => lengths.get(parent) ?? lengths.set(parent, parent.textContent?.length ?? 0).get(parent)!;
  for (const element of elementsWithAttribute(root, ['class'])) {
    const parent = element.parentElement;
    if (!parent || !isVisuallyHidden(element) || !root.contains(element)) continue;
    const own = element.textContent ?? '';
    const said = normalised(own);
    if (!/[\p{L}\p{N}]/u.test(said)) continue;
    // The rest of the parent can only read the same when it is about as long (white space aside).
    if (saidBeside(element, parent, said, lengthOf(parent) <= 3 * own.length + 200)) {
      element.remove();
      removed++;
    }
  }
  return removed;
}

function isVisuallyHidden(element: Element): boolean {
  for (const token of element.classList) if (VISUALLY_HIDDEN.test(token)) return true;
  return false;
}

/** Whether the element's neighbour, or its parent without it, reads `said`. */
function saidBeside(element: Element, parent: Element, said: string, parentMayRepeat: boolean): boolean {
  if (parentMayRepeat) {
    const rest = Array.from(parent.childNodes)
      .filter((node) => node !== element)
      .map((node) => node.textContent ?? '')
      .join('');
    if (normalised(rest) === said) return true;
  }
  for (const sibling of [element.previousElementSibling, element.nextElementSibling]) {
    if (sibling && !isVisuallyHidden(sibling) && normalised(sibling.textContent ?? '') === said && onlySpaceBetween(element, sibling)) return true;
  }
  return false;
}

/** Whether nothing but white space stands between two siblings. */
function onlySpaceBetween(a: Element, b: Element): boolean {
  const [first, last] = a.compareDocumentPosition(b) & 4 ? [a, b] : [b, a];
  for (let node = first.nextSibling; node && node !== last; node = node.nextSibling) {
    if (node.nodeType !== 3 || (node.textContent ?? '').trim() !== '') return false;
  }
  return true;
}

function normalised(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
