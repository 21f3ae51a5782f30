import { INVISIBLE, textLength } from './text-measure.ts';
import { descendants, elementsNamed, tagSet } from './elements.ts';
import { countWords } from './words.ts';

/**
 * Page furniture inside the container Readability chose: navigation, share bars, newsletter and cookie prompts,
 * related-story rails, comment threads, reply forms, bylines and datelines. Readability's own "unlikely candidate"
 * rule spares anything whose class also says `article`, `content` or `main` (so `related-articles` survives) and is
 * dropped altogether on its retry passes; these rules read the element's role, tag and class/id words instead, and
 * never remove an element that holds a large share of the article's reading text (a content wrapper with an unlucky
 * class name).
 */

/** The article's own furniture: bylines, datelines, author boxes, print-only copies, copyright lines. */
const ARTICLE_FURNITURE_WORDS = ['byline', 'byl', 'timestamp', 'dateline', 'author', 'authors', 'bio', 'print', 'copyright'];
const ARTICLE_FURNITURE = new Set(ARTICLE_FURNITURE_WORDS);

/** Whether class/id words name the article's own small furniture (a byline, a date, a credit line). */
export function isArticleFurniture(words: string[]): boolean {
  return words.some((word) => ARTICLE_FURNITURE.has(word));
}

export const PROTECTED = new Set(['body', 'html', 'article', 'main', 'p']);

/** Class/id words of furniture (a class is split into words at `-`, `_`, spaces and camelCase humps). */
const FURNITURE_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'sitenav', 'topnav', 'subnav', 'menu', 'menubar', 'megamenu', 'breadcrumb',
  'breadcrumbs', 'masthead', 'toolbar', 'share', 'sharing', 'sharebar', 'sharetools', 'social', 'socials',
  'newsletter', 'subscribe', 'subscription', 'signup', 'cookie', 'cookies', 'consent', 'gdpr', 'related',
  'recommended', 'recommendations', 'promo', 'promos', 'trending', 'popular', 'mostread', 'outbrain', 'taboola',
  'comments', 'disqus', 'rail', 'sidebar', 'sponsored', 'advert', 'advertisement', 'adslot', 'ads', 'ad',
  'modal', 'popup', 'paywall', 'pagination', 'pager',
  // A forum member's signature under each of their posts, and a Q&A site's asked/answered-by card.
  'signature', 'signatures',
  ...ARTICLE_FURNITURE_WORDS,
]);

/**
 * Class/id words of a grid's or a search's filter panel ("Refine by", "Filter Size with value XL", price ranges): a
 * panel of controls whose labels are furniture in a document. Not the singular `filter`: it names one control, or a
 * CSS utility (Tailwind's `filter` turns on an image's filters).
 */
const FILTER_PANEL_WORDS = new Set(['facet', 'facets', 'filters', 'refinements']);
/**
 * Class/id words of a skip link ("Skip to content"), which is a few words: a theme that names its article's sections
 * for the contents list that skips to them (`skip-item`) holds the article in them.
 */
const SKIP_WORDS = new Set(['skip']);
/**
 * A set of tabs: its labels are controls, unless the page put the panels inside it too (an FAQ's or a course's tabs
 * with their answers), which a reader reads.
 */
const CONTROL_ROLES = new Set(['tablist']);
/**
 * A text of this many words is prose, which a panel of controls never holds (a filter's labels are a size, a colour,
 * a price range; a tab's its name): an element so named that holds such a text is content (a buying guide in a
 * "filters" accordion, a layout's "facet-row" of paragraphs, a tab list holding its panels).
 */
const PROSE_WORDS = 10;

const FURNITURE_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'search', 'dialog', 'alertdialog',
  'toolbar',
]);

const FURNITURE_TAGS = ['nav', 'footer', 'aside', 'dialog', 'button', 'select', 'textarea', 'template'];
const HEADER = 'header';

/** Never remove an element holding more than this share of the article's reading text (and at least MIN_GUARDED characters). */
const MAX_SHARE = 0.25;
const LINKS = tagSet('a');
const MIN_GUARDED = 500;

export function classWords(element: Element): string[] {
  const raw = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  if (raw.trim() === '') return [];
  // Utility classes with a variant prefix (`print:break-inside-avoid`, `md:hidden`, `[&_a]:underline`) style the
  // element under a condition; they name nothing it is, and `print:` on a code block is not a print-only copy.
  // A class that says what the element lacks or hides (`hide-read-more-ad`, `no-sidebar`, `without-comments`) names a
  // state of the element, not what it is: a card whose ad is hidden is not an ad. (Not `has-` or `with-`: what an
  // element holds may be what it is, as a shop's `filter-box has-menu`.)
  return raw
    .split(/\s+/)
    .filter((token) => !token.includes(':'))
    .map((token) => token.replace(CSS_MODULE_HASH, '$1').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean))
    .filter((words) => words.length < 2 || (!STATE_PREFIXES.has(words[0]!) && !STATE_SUFFIXES.has(words.at(-1)!)))
    .flat();
}

/**
 * A CSS module's class, as bundlers write it (`[file]_[name]__[hash]`: `AccordionTextItem_item__adF2E`,
 * `FAQ_accordionButton__P4v3H`): the hash is letters and digits at random, and read as words it names furniture now
 * and then (`adF2E` is the word "ad", and took an FAQ's every answer with it). The hash holds a capital or a digit,
 * which a BEM element (`card__title`) does not, and follows a file's and a name's parts.
 */
const CSS_MODULE_HASH = /^([A-Za-z][A-Za-z0-9-]*_[A-Za-z0-9-]+)__(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{4,8}$/;

/** First words of a class naming what the element lacks or hides rather than what it is. */
const STATE_PREFIXES = new Set(['no', 'not', 'non', 'hide', 'without']);
/**
 * Last words of a class naming a state of the element rather than what it is: a shop's product card marked
 * `subscription-eligible` is not a subscription box, a layout marked `sidebar-open` or `share-enabled` is not a rail.
 */
const STATE_SUFFIXES = new Set(['eligible', 'enabled', 'disabled', 'active', 'inactive', 'open', 'opened', 'visible', 'expanded', 'loaded', 'selected', 'available']);

/**
 * Removes the furniture under `root`. `articlePage`: the page's `og:type` says article, which decides what a
 * `<header>` inside the content is. On an article it is the article's head — headline, standfirst, byline, date —
 * which every document prints in a head of its own: furniture. On any other page a header that holds prose is the
 * page's hero (a service's headline and its pitch, a topic's introduction), the first thing its reader reads, and it
 * stays as a panel of controls holding prose does; one without prose (a logo, a row of links) goes.
 */
export function removeFurniture(root: Element, articlePage: boolean): void {
  const readingText = new ReadingText(root);
  const candidates: Array<{ element: Element; unlessProse: boolean }> = [];
  for (const element of descendants(root)) {
    const furniture = furnitureOf(element, articlePage);
    if (furniture) candidates.push({ element, unlessProse: furniture === 'unless-prose' });
  }
  let prose: ReadonlySet<Element> | null = null;
  for (const { element, unlessProse } of candidates) {
    if (!root.contains(element)) continue; // inside furniture removed already
    if (readingText.isLargeShare(element)) continue;
    if (unlessProse && (prose ??= proseHolders(root)).has(element)) continue;
    element.remove();
  }
}

/** Furniture, or furniture unless it holds prose (a panel of controls, a header off an article), or neither. */
function furnitureOf(element: Element, articlePage: boolean): 'furniture' | 'unless-prose' | null {
  const tag = element.localName;
  if (FURNITURE_TAGS.includes(tag)) return 'furniture';
  if (tag === HEADER) return articlePage ? 'furniture' : 'unless-prose';
  // A form that posts sends what a reader writes (a reply, a sign-up, a cart): its labels and terms are not the page's.
  // Not every form: old Reddit wraps each comment in one (no method, so a GET), and a page wrapped whole in a posting
  // form (ASP.NET's) holds the reading text, which the large-share guard keeps.
  if (tag === 'form' && element.getAttribute('method')?.trim().toLowerCase() === 'post') return 'furniture';
  if (PROTECTED.has(tag)) return null;
  const role = element.getAttribute('role')?.trim().toLowerCase();
  if (role && FURNITURE_ROLES.has(role)) return 'furniture';
  if (role && CONTROL_ROLES.has(role)) return 'unless-prose';
  const words = classWords(element);
  if (words.some((word) => FURNITURE_WORDS.has(word))) return 'furniture';
  return words.some((word) => FILTER_PANEL_WORDS.has(word) || SKIP_WORDS.has(word)) ? 'unless-prose' : null;
}

/** Whether a text has PROSE_WORDS words of letters: a filter's "4-1/4 to 4-3/4 in (11 to 12 cm)" has four. */
function isProse(text: string): boolean {
  return countWords(text) >= PROSE_WORDS && countWords(text.replace(/\p{N}+/gu, ' ')) >= PROSE_WORDS;
}

/** The elements under `root` (itself included) that hold a text of PROSE_WORDS words or more, script and style aside. */
function proseHolders(root: Element): ReadonlySet<Element> {
  const holders = new Set<Element>();
  const visit = (element: Element): boolean => {
    let holds = false;
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) holds ||= isProse((child as Text).data);
      else if (child.nodeType === 1 && !INVISIBLE.has((child as Element).localName)) holds = visit(child as Element) || holds;
    }
    if (holds) holders.add(element);
    return holds;
  };
  visit(root);
  return holders;
}

/**
 * How much of the article's reading text an element holds: its text outside links (navigation and rails are mostly
 * link text, an article mostly is not), counted without whitespace and without script.
 */
export class ReadingText {
  private readonly total: number;

  constructor(root: Element) {
    this.total = this.within(root);
  }

  within(element: Element): number {
    let links = 0;
    for (const a of elementsNamed(element, LINKS)) links += textLength(a);
    return textLength(element) - links;
  }

  isLargeShare(element: Element): boolean {
    const own = this.within(element);
    return own >= MIN_GUARDED && own > this.total * MAX_SHARE;
  }
}
