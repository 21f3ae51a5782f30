import { closestNamed, elementsWithAttribute, tagSet } from './elements.ts';
import { words } from './text-measure.ts';

/**
 * Text a page writes for screen readers alone, which CSS hides from the eye (`sr-only`, `visually-hidden`,
 * `screen-reader-text`, `clipped` …) and which is not read here: a document prints what the page shows.
 * - What a control announces about itself goes: the hidden text of a link, a button, a label or a summary ("Opens in a
 *   new tab", "Open submenu", "Variant sold out or unavailable", a colour swatch's "Option: BILLY, Bookcase, oak
 *   effect"). A reader of the page sees the control's own text, or its picture, and nothing more.
 * - A copy of text shown beside it goes: a price "EUR 163.12" with a visually hidden "EUR 163.12" inside it, a card's
 *   title beside its clipped copy, which every output would read as "EUR 163.12EUR 163.12".
 * - Anything else a screen reader is told stays ("Rating:" before "4.5 of 5", "Original price was:" before a price
 *   struck through): it is the only place that text is, and it reads as part of the page's own sentences.
 */
const VISUALLY_HIDDEN = /^(?:[a-z]+-)?(?:sr-only|sr-text|visually-?hidden|visually_hidden|screen-?reader(?:-(?:text|only))?|a11y-(?:hidden|only|text)|assistive-text|hidden-visually|element-invisible|clipped)$/i;
const CONTROLS = tagSet('a', 'button', 'label', 'summary');

/** How many visually hidden elements were removed. */
export function removeScreenReaderText(root: Element): number {
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
    const goes = announcesControl(element, root) ||
      // The rest of the parent can only read the same when it is about as long (white space aside).
      saidBeside(element, parent, said, lengthOf(parent) <= 3 * own.length + 200);
    if (goes) {
      element.remove();
      removed++;
    }
  }
  return removed;
}

/**
 * A live region (`role="status"` or `"alert"`, `aria-live` polite or assertive) is where a page tells a screen reader
 * what just happened: "loaded 338 results", "Slide 1 of 8", "Added to Cart", "Thank you for your feedback", a form's
 * "Please enter a valid email address". In a saved page they are templates waiting for an event, or the last one
 * announced; never the content. A long one stays: some pages set their callouts ("Note: new users can try the app
 * for two weeks…") as alerts, and those are the page's own sentences.
 */
const LIVE_ROLES = /^(?:status|alert)$/i;
const LIVE = /^(?:polite|assertive)$/i;
const MAX_ANNOUNCEMENT_WORDS = 12;
/** What an announcement never holds: a region with a picture or a table in it is shown, whatever its role says. */
const SHOWN = 'img, picture, video, table, pre, figure';

/** How many announcements were removed. */
export function removeAnnouncements(root: Element): number {
  let removed = 0;
  for (const element of elementsWithAttribute(root, ['role', 'aria-live'])) {
    if (!root.contains(element)) continue;
    if (!LIVE_ROLES.test(element.getAttribute('role') ?? '') && !LIVE.test(element.getAttribute('aria-live') ?? '')) continue;
    if (words(element) >= MAX_ANNOUNCEMENT_WORDS || element.querySelector(SHOWN)) continue;
    element.remove();
    removed++;
  }
  return removed;
}

/** Whether the element is, or is inside, a control of the content's own. */
function announcesControl(element: Element, root: Element): boolean {
  const control = closestNamed(element, CONTROLS);
  return control !== null && root.contains(control);
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
