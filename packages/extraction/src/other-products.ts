import { descendants, elementsNamed, tagSet } from './elements.ts';
import { baseAddress, childElements } from '@folio/dom';
import { removeWithLabel, Site } from './related-links.ts';
import { normalisedText, words } from './text-measure.ts';

/**
 * Other products a product page offers beside its own ("People who viewed this item also viewed", "Similar items",
 * "Frequently bought together"): a run of cards — like siblings, each a short block with a price and a link to
 * another page of the site. Only on a page that states it offers one product (`statesOneProduct`): on a category or
 * a search, such cards are the content. A run holding most of what was kept is the content whatever the page states.
 */
const MIN_CARDS = 3;
/** Share of a run's siblings that must be cards (a carousel also holds its arrows and a "see all" link). */
const CARD_SHARE = 0.6;
const MAX_CARD_WORDS = 60;
/** Share of the content's words a run may hold and still be beside the product rather than the content itself. */
const MAX_RUN_SHARE = 0.5;
/** A price: a currency sign or code next to a number, on either side. */
const PRICE = /(?:[$€£¥₹]|\b(?:US\$|USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|PLN|kr|zł)\s?)\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|kr|zł|Kč)\b)/;
const A = tagSet('a');

/** Whether any run was removed. */
export function removeOtherProducts(root: Element): boolean {
  const base = baseAddress(root.ownerDocument);
  const site = new Site(base);
  const page = pageOf(base);
  // A card links to another page: a link to this one (a variant's `?size=`, an anchor) is the product's own.
  const linksElsewhere = (card: Element) =>
    elementsNamed(card, A).some((a) => {
      const href = a.getAttribute('href') ?? '';
      if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return false;
      const target = pageOf(href, base);
      return target !== null && target !== page;
    });
  const isCard = (element: Element) => words(element) <= MAX_CARD_WORDS && PRICE.test(normalisedText(element)) && linksElsewhere(element);
  const total = words(root);
  let removed = false;
  for (const element of descendants(root)) {
    if (!root.contains(element)) continue;
    const siblings = childElements(element).filter((child) => normalisedText(child) !== '');
    if (siblings.length < MIN_CARDS) continue;
    const cards = siblings.filter(isCard).length;
    if (cards < MIN_CARDS || cards < siblings.length * CARD_SHARE) continue;
    // Cards linking out of the site are what a page recommends (a gift guide's shops), not the site's other offers.
    if (words(element) > total * MAX_RUN_SHARE || !site.linksAreInternal(element)) continue;
    removeWithLabel(element, true);
    removed = true;
  }
  return removed;
}

/** An address without its query and fragment: the page it names. */
function pageOf(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base);
    return `${parsed.host}${parsed.pathname.replace(/\/$/, '')}`;
  } catch {
    return null;
  }
}
