import { childElements } from '@folio/dom';
import { descendants } from './elements.ts';
import { removeWithLabel } from './related-links.ts';
import { normalisedText, words } from './text-measure.ts';

/** What makes a run of like siblings cards of other pages, beside the content rather than the content itself. */
export interface Cards {
  /** Whether a sibling is one of the cards. */
  isCard: (element: Element) => boolean;
  /** Cards a run needs, and the share of its siblings that must be cards (a carousel also holds its arrows). */
  min: number;
  share: number;
  /** Share of the content's words beyond which the run is the content (a category's grid, a list of stories). */
  maxRunShare: number;
  /** A last word on a run that passed the others. */
  accepts?: (run: Element) => boolean;
  /** What goes with its label: the run, or a frame around it. */
  going?: (run: Element) => Element;
}

/** Removes every run of `cards` under `root` with its label (`removeWithLabel`); whether any went. */
export function removeRunsOfCards(root: Element, cards: Cards): boolean {
  const total = words(root);
  let removed = false;
  for (const element of descendants(root)) {
    // Most elements have too few children to hold a run: asked before their children's text is read.
    if (element.childElementCount < cards.min || !root.contains(element)) continue;
    const siblings = childElements(element).filter((child) => normalisedText(child) !== '');
    if (siblings.length < cards.min) continue;
    const count = siblings.filter(cards.isCard).length;
    if (count < cards.min || count < siblings.length * cards.share) continue;
    if (words(element) > total * cards.maxRunShare || (cards.accepts && !cards.accepts(element))) continue;
    removeWithLabel(cards.going ? cards.going(element) : element, true);
    removed = true;
  }
  return removed;
}
