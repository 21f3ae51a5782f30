import { descendants, firstNamed, tagSet } from './elements.ts';
import { removeRunsOfCards } from './runs-of-cards.ts';
import { normalisedText, words } from './text-measure.ts';

/**
 * Teasers of the site's other stories under an article ("Also in the news": each card its category, title, date and
 * the first lines of the story, cut short with an ellipsis): a run of like siblings, most of them cards whose text
 * ends where the excerpt was cut. Only on a page whose `og:type` says it is an article, and only a run under half of
 * what was kept: on a list of stories the teasers are the content. The related-links rule takes a card's linked title
 * and leaves its excerpt, which is what is left to tell it by.
 */
const MIN_TEASERS = 3;
const TEASER_SHARE = 0.6;
const MAX_TEASER_WORDS = 60;
const MAX_RUN_SHARE = 0.5;
/** An excerpt cut short: an ellipsis right after a word ("…on Tuesday, December 1..."), perhaps a "Read more" after it. */
const CUT_SHORT = /[\p{L}\p{N},;]\s?(?:\.{3}|…)\W*(?:(?:read|more|continue|reading)\W*){0,3}$/iu;
const LINES = tagSet('p', 'div', 'h2', 'h3', 'h4', 'h5', 'h6', 'time', 'header', 'footer');

export function removeTeasers(root: Element): boolean {
  return removeRunsOfCards(root, {
    isCard: (element) => words(element) <= MAX_TEASER_WORDS && CUT_SHORT.test(normalisedText(element)) && isCard(element),
    min: MIN_TEASERS,
    share: TEASER_SHARE,
    maxRunShare: MAX_RUN_SHARE,
  });
}

/**
 * A card is lines: its excerpt in a block of its own beside a title, a date or a category. One run of text ending in
 * an ellipsis is a list item the author wrote so (a list of courses, each "…and more…").
 */
function isCard(element: Element): boolean {
  let lines = 0;
  for (const block of descendants(element)) {
    if (LINES.has(block.localName) && !firstNamed(block, LINES) && normalisedText(block) !== '' && ++lines >= 2) return true;
  }
  return false;
}
