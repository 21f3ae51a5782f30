import { elementsNamed, tagSet } from './elements.ts';
import { baseAddress } from '@folio/dom';
import { Site } from './related-links.ts';
import { removeRunsOfCards } from './runs-of-cards.ts';
import { normalisedText, words } from './text-measure.ts';
import { pageOf } from './host.ts';

/**
 * Other products a product page offers beside its own ("People who viewed this item also viewed", "Similar items",
 * "Frequently bought together"): a run of cards — like siblings, each a short block with a price and a link to
 * another page of the site. Only on a page that states it offers one product (`statesOneProduct`): on a category or
 * a search, such cards are the content. A run holding most of what was kept is the content whatever the page states.
 * A card's link is judged on the page as it was before the cleanup (`markLinksElsewhere`), which may have taken it.
 */
const MIN_CARDS = 3;
/** Share of a run's siblings that must be cards (a carousel also holds its arrows and a "see all" link). */
const CARD_SHARE = 0.6;
const MAX_CARD_WORDS = 60;
/**
 * Share of the content's words a run may hold and still be beside the product rather than the content itself. A
 * product's own text may be short (a guitar's 130 words of specifications beside eleven cards of its other colours,
 * 62 % of the words kept); a run of more than three quarters leaves too little to be a product's page.
 */
const MAX_RUN_SHARE = 0.75;
/** A price: a currency sign or code next to a number, on either side. */
const PRICE = /(?:[$€£¥₹]|\b(?:US\$|USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|PLN|kr|zł)\s?)\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|kr|zł|Kč)\b)/;
const A = tagSet('a');

/**
 * Notes in `into` every element under `root` that holds a link to another page of the site, before the cleanup: a
 * card's only link is often a button-like "to the product" that the cleanup takes as a line of links, and without it
 * the card could not be told from the product's own prices (its editions, its plans).
 */
export function markLinksElsewhere(root: Element, into: WeakSet<Element>): void {
  const { site, leadsElsewhere } = linksOf(root);
  for (const a of elementsNamed(root, A)) {
    if (!leadsElsewhere(a) || !site.holds(a.getAttribute('href') ?? '')) continue;
    for (let element: Element | null = a; element && element !== root && !into.has(element); element = element.parentElement) into.add(element);
  }
}

/** The site of `root`'s page, and whether a link leads to another of its pages, both from the page's address. */
function linksOf(root: Element): { site: Site; leadsElsewhere: (a: Element) => boolean } {
  const base = baseAddress(root.ownerDocument);
  return { site: new Site(base), leadsElsewhere: linksElsewhereFrom(base) };
}

/**
 * Whether any run was removed. `linkedBefore`: the elements that held a link to another page before the cleanup
 * (`markLinksElsewhere`).
 */
export function removeOtherProducts(root: Element, linkedBefore?: WeakSet<Element>): boolean {
  const { site, leadsElsewhere } = linksOf(root);
  const linksElsewhere = (card: Element) => linkedBefore?.has(card) || elementsNamed(card, A).some(leadsElsewhere);
  return removeRunsOfCards(root, {
    isCard: (element) => words(element) <= MAX_CARD_WORDS && PRICE.test(normalisedText(element)) && linksElsewhere(element),
    min: MIN_CARDS,
    share: CARD_SHARE,
    maxRunShare: MAX_RUN_SHARE,
    // Cards linking out of the site are what a page recommends (a gift guide's shops), not the site's other offers.
    accepts: (run) => site.linksAreInternal(run),
    going: (run) => outermostWrapper(run, root),
  });
}

/**
 * The outermost element around `element` that holds nothing else (a carousel's frame, its track): its label ("You
 * may also like") stands before the frame, not before the cards' own row.
 */
function outermostWrapper(element: Element, root: Element): Element {
  const text = normalisedText(element);
  let wrapper = element;
  while (wrapper.parentElement && wrapper.parentElement !== root && normalisedText(wrapper.parentElement) === text) wrapper = wrapper.parentElement;
  return wrapper;
}

/** Whether a link leads to another page than `base`: a link to this one (a variant's `?size=`, an anchor) is the product's own. */
function linksElsewhereFrom(base: string): (a: Element) => boolean {
  const page = pageOf(base);
  return (a) => {
    const href = a.getAttribute('href') ?? '';
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return false;
    const target = pageOf(href, base);
    return target !== null && target !== page;
  };
}
