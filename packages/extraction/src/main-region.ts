import { removeFurniture } from './boilerplate.ts';
import type { Cleaning } from './cleanup.ts';
import { descendants, elementsNamed, isHidden, tagSet } from './elements.ts';
import { lowerCaseWords, textLength } from './text-measure.ts';
import { baseAddress } from '@folio/dom';
import { pageOf } from './host.ts';

/**
 * The page's own statement of where its main content is: the `<main>` element or the element with `role="main"`
 * (the largest, when a page has several), with its text length (characters without whitespace, `textLength`).
 * Readability looks for the one block of prose with the best score, which on a page that is not one article — a
 * forum thread, a product, a list of courses, a grid of products — keeps one post, one description or nothing; the
 * region stands in when Readability kept only a small part of it.
 */
export function mainRegionOf(document: Document): { element: Element; length: number } | null {
  const body = document.body;
  if (!body) return null;
  let best: Element | null = null;
  let bestLength = 0;
  for (const element of descendants(body)) {
    const role = element.getAttribute('role');
    if (element.localName !== 'main' && !(role && role.trim().toLowerCase() === 'main')) continue;
    if (best && best.contains(element)) continue;
    const length = textLength(element);
    if (length > bestLength) {
      best = element;
      bestLength = length;
    }
  }
  return best ? { element: best, length: bestLength } : null;
}

/** What a reader never sees, or cannot use in a document: hidden elements, form controls, media without text. */
const UNSEEN = tagSet('script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas',
  'button', 'select', 'input', 'textarea', 'option', 'dialog', 'link', 'meta');

/**
 * The region made into article content as Readability would have given it: a `<div>` holding its content, without
 * what is hidden or interactive and without the furniture rules' navigation, share bars and rails. `page` is what the
 * cleanup that follows is told (`cleanArticle`: related links, notices, the head's repeated headline run on it too).
 */
export function regionContent(region: Element, page: Cleaning): Element {
  const document = region.ownerDocument;
  const content = document.createElement('div');
  // The region's own children move (the caller hands over a copy, or a document it has no further use for); a run
  // of entries moves whole, with its own element, since a table's rows or a list's items cannot stand alone.
  if (page.entries) content.append(region);
  else content.append(...Array.from(region.childNodes));
  const total = textLength(content);
  for (const element of descendants(content)) {
    if (!content.contains(element)) continue;
    if (UNSEEN.has(element.localName)) element.remove();
    // A hidden wrapper around most of the region is content a script reveals on load (a "lockdown" or fade-in
    // wrapper): a reader sees it, so it stays.
    else if (isHidden(element) && textLength(element) <= total * HIDDEN_WRAPPER_SHARE) element.remove();
  }
  removeFurniture(content, page.articlePage);
  return content;
}

const HIDDEN_WRAPPER_SHARE = 0.5;

/** Words of a text, lower-cased, with their counts. */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of lowerCaseWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/**
 * Whether the region should replace Readability's choice: it holds much more reading text than Readability kept
 * (at least `ratio` times its words, and `extra` words more), and it holds what Readability kept (most of its words),
 * so that it is the same place on the page grown to its full extent, not another part of the page. A region that
 * holds REGION_WHOLE_RATIO times the words wins without holding them: the page says where its content is, and what
 * Readability kept beside so much is a panel the region's cleanup drops (a store's hidden reviews-by-language
 * flyout, a "go to top" link), not the page's content elsewhere.
 */
export function regionIsBetter(chosenText: string, regionText: string, ratio = REGION_RATIO, extra = REGION_EXTRA): boolean {
  const chosen = wordCounts(chosenText);
  const region = wordCounts(regionText);
  let chosenWords = 0;
  let shared = 0;
  for (const [word, count] of chosen) {
    chosenWords += count;
    shared += Math.min(count, region.get(word) ?? 0);
  }
  let regionWords = 0;
  for (const count of region.values()) regionWords += count;
  if (regionWords < chosenWords * ratio || regionWords < chosenWords + extra) return false;
  if (regionWords >= chosenWords * REGION_WHOLE_RATIO) return true;
  return chosenWords === 0 || shared >= chosenWords * REGION_HOLDS;
}

/** What the page states that bears on the body standing in (`bodyIsBetter`). */
export interface BodyPage {
  /** It offers one product (`statesOneProduct`). */
  oneProduct?: boolean;
  /** Its `og:type` is article (`openGraphArticle`). */
  articlePage?: boolean;
}

/**
 * Whether the page's body without its frame (`regionContent` of the body) should stand in for what was kept. When
 * nothing was kept, it always does (refusing is for a page where nothing is left). When what was kept is a fragment
 * of the page — at most FRAGMENT_WORDS words — and the body holds BODY_RATIO times as many, the extraction latched
 * onto one block of a page whose content is spread out (a category page's grid beside its introduction, a service
 * page of short sections, a thread whose posts are not alike): the body is the better answer. Past FRAGMENT_WORDS,
 * what was kept is a piece of reading of its own, and the body's extra words are mostly its surroundings. So they
 * are on a page that states it offers one product: its description is often short, and what the body adds is the
 * shop around it — other products, menus, policies. And on a page whose `og:type` says it is an article, once
 * Readability kept ARTICLE_KEPT_WORDS words or more: a short post is the page's article, and the body adds its
 * sidebar, its round-up of other posts, its author box (measured: WCXB's held-out folds +0.002 and +0.000,
 * docs/benchmarks.md).
 */
export function bodyIsBetter(keptWords: number, bodyWords: number, page: BodyPage = {}): boolean {
  // Nothing kept: bodyMayBeBetter says yes, and any body holds three times nothing.
  return bodyMayBeBetter(keptWords, page) && bodyWords >= keptWords * BODY_RATIO;
}

/** Whether the body may stand in at all (`bodyIsBetter`), asked before the page is parsed again to read it. */
export function bodyMayBeBetter(keptWords: number, page: BodyPage = {}): boolean {
  if (keptWords === 0) return true;
  if (page.articlePage && keptWords >= ARTICLE_KEPT_WORDS) return false;
  return !page.oneProduct && keptWords <= FRAGMENT_WORDS;
}

export const FRAGMENT_WORDS = 200;
export const BODY_RATIO = 3;

export const REGION_RATIO = 1.5;
export const REGION_EXTRA = 50;
/** Share of Readability's words the region must hold to be the same place on the page… */
const REGION_HOLDS = 0.8;
/** …unless it holds this many times Readability's words (tuned on folds 0–2: 3× and 4× alike, 6× half the gain). */
export const REGION_WHOLE_RATIO = 4;

/** `<noscript>` content that is a page's body for readers without JavaScript (a forum's server-rendered thread). */
const NOSCRIPT = tagSet('noscript');
const MIN_NOSCRIPT_TEXT = 200;
/**
 * A block about the script itself ("Your browser does not seem to support JavaScript… read-only mode") is a notice
 * for readers without it, even past MIN_NOSCRIPT_TEXT: it names JavaScript and asks for it or says it is missing.
 */
const SCRIPT_NOTICE = [/\bjavascript\b/i, /\b(?:enabled?|supports?|disabled|required|turn(?:ed)? (?:on|off)|browser)\b/i];
const MAX_SCRIPT_NOTICE_TEXT = 500;

/**
 * Pages are read with scripting off, as a reader without JavaScript sees them; a `<noscript>` block is what such
 * a reader gets instead of the script's rendering, and some platforms put the whole page there. Readability drops
 * every `<noscript>`; a block with real text (MIN_NOSCRIPT_TEXT characters or more) is unwrapped instead, so
 * that its content can be chosen. Small ones (tracking pixels) and notes about JavaScript stay and are dropped.
 */
export function unwrapNoscriptContent(document: Document): void {
  const body = document.body;
  if (!body) return;
  for (const element of elementsNamed(body, NOSCRIPT)) {
    if (!element.isConnected || !element.firstElementChild) continue;
    const length = textLength(element);
    if (length < MIN_NOSCRIPT_TEXT) continue;
    if (length <= MAX_SCRIPT_NOTICE_TEXT && SCRIPT_NOTICE.every((pattern) => pattern.test(element.textContent ?? ''))) continue;
    element.replaceWith(...Array.from(element.childNodes));
  }
}


/** A JSON-LD `@type` (alone or first of a list) that is one of `names`. */
const jsonLdType = (names: readonly string[]) => new RegExp(`"@type"\\s*:\\s*\\[?\\s*"(?:${names.join('|')})"`);
/** Schema.org types of a discussion: a forum thread, a question with its answers. */
const DISCUSSION_TYPE_NAMES = ['DiscussionForumPosting', 'QAPage', 'Question'];
/** JSON-LD types of one article, and of pages that are something else even when they also call themselves one. */
const ARTICLE_TYPES = jsonLdType(['Article', 'NewsArticle', 'BlogPosting', 'OpinionNewsArticle', 'AnalysisNewsArticle', 'ReportageNewsArticle', 'Report', 'ScholarlyArticle', 'LiveBlogPosting']);
const OTHER_TYPES = jsonLdType([...DISCUSSION_TYPE_NAMES, 'Product', 'ProductGroup', 'ItemList', 'CollectionPage', 'SearchResultsPage', 'FAQPage']);
const DISCUSSION_TYPES = jsonLdType(DISCUSSION_TYPE_NAMES);
const DISCUSSION_ITEMTYPE = new RegExp(`schema\\.org/(?:${DISCUSSION_TYPE_NAMES.join('|')})\\b`, 'i');
/** JSON-LD types of a page that lists products (a category, a search, a catalogue). */
const PRODUCT_LIST_TYPE_NAMES = ['ItemList', 'CollectionPage', 'OfferCatalog', 'SearchResultsPage'];
const PRODUCT_LIST_TYPES = jsonLdType(PRODUCT_LIST_TYPE_NAMES);
const PRODUCT_ITEMTYPE = /schema\.org\/Product$/i;

/** What a page states about itself: its JSON-LD scripts' text, its `og:type`s (lower-cased) and its microdata types. */
export interface PageStatements {
  /** The page's address, which a statement's own `url` may name or not. */
  address: string;
  jsonLd: string[];
  openGraphTypes: string[];
  itemtypes: string[];
}

/**
 * The page's statements, read in one walk. Read them before Readability runs: it removes the page's scripts. The
 * questions below take them.
 */
export function pageStatements(document: Document): PageStatements {
  const stated: PageStatements = { address: baseAddress(document), jsonLd: [], openGraphTypes: [], itemtypes: [] };
  for (const element of descendants(document)) {
    const itemtype = element.getAttribute('itemtype');
    if (itemtype !== null) stated.itemtypes.push(itemtype.trim());
    if (element.localName === 'script' && /ld\+json/i.test(element.getAttribute('type') ?? '')) {
      stated.jsonLd.push(element.textContent ?? '');
    } else if (element.localName === 'meta' && element.getAttribute('property')?.trim().toLowerCase() === 'og:type') {
      stated.openGraphTypes.push(element.getAttribute('content')?.trim().toLowerCase() ?? '');
    }
  }
  return stated;
}


/**
 * Whether the page states that it is one article (`og:type` article and a JSON-LD article type) and no forum thread,
 * product or list. On such a page Readability's choice of the article is kept unless it kept almost nothing: the
 * main region around an article holds its related stories, author boxes and comments.
 */
export function statesArticle(stated: PageStatements): boolean {
  // Either signal alone is stated by whole sites on every page (a CMS's default og:type, a theme's Article markup
  // on its index pages); an article page states both.
  if (!openGraphArticle(stated)) return false;
  let jsonLd = false;
  for (const json of stated.jsonLd) {
    if (OTHER_TYPES.test(json)) return false;
    jsonLd ||= ARTICLE_TYPES.test(json);
  }
  return jsonLd;
}

/**
 * Whether the page states that it is a discussion — a forum thread or a question with its answers (JSON-LD or
 * microdata DiscussionForumPosting, QAPage, Question): its replies are its content, even where its markup calls them
 * comments.
 */
export function statesDiscussion(stated: PageStatements): boolean {
  return stated.jsonLd.some((json) => DISCUSSION_TYPES.test(json)) || stated.itemtypes.some((type) => DISCUSSION_ITEMTYPE.test(type));
}

/** Whether the page's `og:type` is article: alone, a weaker sign than `statesArticle`'s. */
export function openGraphArticle(stated: PageStatements): boolean {
  return stated.openGraphTypes.includes('article');
}

/**
 * Whether the page states that it offers one product: its JSON-LD describes one (by name: a site may state it twice,
 * and a product's variants, accessories and look-alikes nested in it are its own), or, with no product in its JSON-LD,
 * one element's microdata is a Product; and it states no list of products on this page (ItemList, CollectionPage, an
 * `og:type` of a product group; a catalogue whose `url` names another page is the shop's, not this page's). Other
 * products' cards on such a page are offers beside it (`other-products.ts`).
 */
export function statesOneProduct(stated: PageStatements): boolean {
  if (stated.openGraphTypes.some((type) => type.includes('group'))) return false;
  const names = new Set<string>();
  for (const json of stated.jsonLd) {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      // A script that is not JSON states nothing, unless it names a list: then the page may well be one.
      if (PRODUCT_LIST_TYPES.test(json)) return false;
      continue;
    }
    if (listsHere(value, stated.address, pageOf(stated.address))) return false;
    productNames(value, names);
  }
  if (names.size > 0) return names.size === 1;
  return stated.itemtypes.filter((type) => PRODUCT_ITEMTYPE.test(type)).length === 1;
}

/**
 * Whether a JSON-LD value states a list of products on this page: a list whose `url` names another page (the shop's
 * catalogue, stated on every page of the site beside its organisation) does not say this page lists them. `page`: the
 * page `address` names (`pageOf`), read once.
 */
function listsHere(value: unknown, address: string, page: string | null): boolean {
  if (Array.isArray(value)) return value.some((item) => listsHere(item, address, page));
  if (value === null || typeof value !== 'object') return false;
  const node = value as Record<string, unknown>;
  const types = [node['@type']].flat();
  if (types.some((type) => typeof type === 'string' && PRODUCT_LIST_TYPE_NAMES.includes(type))) {
    const url = typeof node.url === 'string' ? node.url : typeof node['@id'] === 'string' ? node['@id'] : null;
    if (url === null || pageOf(url, address) === page) return true;
  }
  return Object.values(node).some((child) => listsHere(child, address, page));
}

/** The names of the outermost products (Product, ProductGroup) in a JSON-LD value. */
function productNames(value: unknown, names: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) productNames(item, names);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Record<string, unknown>;
  const types = [node['@type']].flat();
  if (types.includes('Product') || types.includes('ProductGroup')) {
    names.add(typeof node.name === 'string' ? node.name.trim() : '');
    return;
  }
  for (const child of Object.values(node)) productNames(child, names);
}

/** Words Readability must have kept of a stated article for its choice to stand against the main region. */
export const ARTICLE_KEPT_WORDS = 50;
