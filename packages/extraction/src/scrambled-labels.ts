import { childElements } from '@folio/dom';
import { descendants } from './elements.ts';

/**
 * A label written to be read by eye and not by a program: its letters stand in spans between spans of noise that
 * the page's CSS hides (eBay's "Sponsored" on its carousels: `<span>S</span><span>f2f260c3-bf1f-…</span><span>p</span>…`).
 * Read as text it is a line of identifiers, dozens of "words" that are in no document the page shows. The noise is
 * what gives it away: a run of sibling spans, half or more of them holding a UUID alone. A UUID a page prints (in
 * prose, a table, code) stands among words, not as every other span of a run.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIN_NOISE_SPANS = 4;

export function removeScrambledLabels(root: Element): void {
  for (const element of descendants(root)) {
    if (!root.contains(element)) continue;
    const children = childElements(element);
    if (children.length < MIN_NOISE_SPANS * 2 || children.some((child) => child.localName !== 'span')) continue;
    const noise = children.filter((child) => UUID.test((child.textContent ?? '').trim())).length;
    if (noise >= MIN_NOISE_SPANS && noise * 2 >= children.length) element.remove();
  }
}
