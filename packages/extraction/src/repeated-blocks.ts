import { firstNamed, tagSet } from './elements.ts';
import { childElements } from '@folio/dom';
import { ARTICLE_KEPT_WORDS } from './main-region.ts';
import { INVISIBLE, lowerCaseWords, nonSpace } from './text-measure.ts';

/**
 * The page's run of like blocks: the element whose children include the most text in blocks made alike — the same
 * tag and the same class words — such as a thread's posts, a grid's products, a list's entries or a table's rows.
 * Readability scores blocks of prose and keeps the best one with its like siblings, so on a page made of many short
 * entries it keeps one entry, an intro or a sidebar's paragraph; the run stands in when it holds far more text.
 */
export interface RepeatedBlocks {
  /** The element to keep: the blocks' parent, or the table or list they belong to. */
  element: Element;
  /** Characters without whitespace in the alike blocks. */
  length: number;
  /** How many alike blocks there are. */
  count: number;
  /** Whether the blocks sit in a comment section (an article's readers' comments, or a thread's replies). */
  comments: boolean;
}

/** Blocks alike must number at least this many… */
export const MIN_BLOCKS = 3;
/** …each with this much text on average (characters without whitespace): an entry, not a menu's label. */
export const MIN_MEAN_BLOCK = 40;

/**
 * …or this much, when (nearly) every block holds a picture: a grid's product cards name a product and its price in
 * twenty-odd characters, under a menu's entry's length but beside an image no menu item has.
 */
export const MIN_MEAN_CARD = 15;
/** The share of a run's blocks that must hold a picture for it to be a run of cards. */
export const CARD_SHARE = 0.8;
const PICTURES = tagSet('img', 'picture');

/** No block may hold more than this share of the run's text. */
export const MAX_BLOCK_SHARE = 0.7;

/** Plain `<div>`s without a class must number at least this many to be a run. */
export const MIN_PLAIN_BLOCKS = 6;
const PLAIN_DIV = 'div.';

/** Never the page's content, nor anything inside it: the page's frame, and what a reader never sees as text. */
const FRAME = tagSet('nav', 'header', 'footer', 'aside', 'dialog', 'form', 'select', 'button', 'svg', 'iframe', 'head');
const FRAME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'dialog', 'search']);
/** Children that are prose or inline markup, not entries: a run of paragraphs is Readability's own case. */
const NOT_BLOCKS = tagSet('p', 'span', 'br', 'img', 'picture', 'b', 'i', 'em', 'strong', 'small', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'option', 'source', 'td', 'th', 'hr', 'figure', 'blockquote', 'pre', 'code', 'label');
/** A run's parent that cannot stand alone in a document: the table or list it belongs to is kept instead. */
const TABLE_PARTS = tagSet('tbody', 'thead', 'tfoot');

/** The run stands in when it holds this many times the text that was kept (characters, then words after cleanup)… */
export const ENTRIES_RATIO = 2;
/** …twice that on a page whose `og:type` says article (a short story beside a list of headlines)… */
export const OPEN_GRAPH_FACTOR = 2;
/** …and never for readers' comments under an article that kept this many words. */
export const COMMENTS_KEPT_WORDS = 150;

export interface Kept {
  /** Characters without whitespace, and words, of what was kept so far. */
  length: number;
  words: number;
  /** The page states it is one article (`statesArticle`), or only its `og:type` says so. */
  statedArticle: boolean;
  openGraphArticle: boolean;
}

/** How many times the text kept the run must hold to stand in for it, or null when it may not. */
export function entriesRatio(entries: RepeatedBlocks, kept: Kept): number | null {
  if (kept.statedArticle && kept.words >= ARTICLE_KEPT_WORDS) return null;
  if (entries.comments && kept.words >= COMMENTS_KEPT_WORDS) return null;
  const ratio = ENTRIES_RATIO * (kept.openGraphArticle ? OPEN_GRAPH_FACTOR : 1);
  return entries.length >= kept.length * ratio ? ratio : null;
}

export function repeatedBlocksOf(document: Document): RepeatedBlocks | null {
  const body = document.body;
  if (!body) return null;
  let best: RepeatedBlocks | null = null;
  // One walk, children before parents, so each element's text length is the sum of its children's.
  const lengthOf = (element: Element, inFrame: boolean): number => {
    if (INVISIBLE.has(element.localName)) return 0;
    const frame = inFrame || isFrame(element);
    let length = 0;
    const children: Array<[Element, number]> = [];
    for (let node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) length += nonSpace((node as Text).data);
      else if (node.nodeType === 1) {
        const child = node as Element;
        const childLength = lengthOf(child, frame);
        length += childLength;
        children.push([child, childLength]);
      }
    }
    if (!frame && children.length >= MIN_BLOCKS) {
      const run = bestRun(children);
      if (run && (!best || run.length > best.length)) best = { element: keptElement(element), ...run, comments: false };
    }
    return length;
  };
  lengthOf(body, false);
  const found = best as RepeatedBlocks | null;
  if (found) found.comments = inComments(found.element);
  return found;
}

function bestRun(children: Array<[Element, number]>): { length: number; count: number } | null {
  const groups = new Map<string, { length: number; largest: number; blocks: Element[] }>();
  for (const [child, length] of children) {
    if (NOT_BLOCKS.has(child.localName) || length === 0) continue;
    const key = signature(child);
    const group = groups.get(key);
    if (group) {
      group.length += length;
      group.largest = Math.max(group.largest, length);
      group.blocks.push(child);
    } else groups.set(key, { length, largest: length, blocks: [child] });
  }
  let best: { length: number; count: number } | null = null;
  for (const [key, { length, largest, blocks }] of groups) {
    const count = blocks.length;
    if (count < MIN_BLOCKS || length < count * MIN_MEAN_CARD) continue;
    if (length < count * MIN_MEAN_BLOCK && !areCards(blocks)) continue;
    // Plain <div>s without a class are any layout's columns: alike only when there are many.
    if (key === PLAIN_DIV && count < MIN_PLAIN_BLOCKS) continue;
    // One block holding most of the run is a page's column beside its header and footer, not one entry of many.
    if (largest > length * MAX_BLOCK_SHARE) continue;
    if (!best || length > best.length) best = { length, count };
  }
  return best;
}

/** Whether nearly every block holds a picture (an `<img>`, or a `<picture>` whose image is a `<source>`). */
function areCards(blocks: Element[]): boolean {
  let pictured = 0;
  for (const block of blocks) if (firstNamed(block, PICTURES)) pictured++;
  return pictured >= blocks.length * CARD_SHARE;
}

/**
 * Class names that say where an entry is filed or where it stands, not what it is: WordPress writes each post's
 * categories, tags, format and status into its class (`category-dinner tag-quick format-standard`), and grids mark
 * their first, last and odd entries. Entries alike differ in them.
 */
const ENTRY_STATE_CLASS = /^(?:(?:category|tag|product_cat|product_tag|format|status|type|product-type|pa_[a-z]+)[-_].|(?:first|last|odd|even|active|current|selected)$)/;

/**
 * Tag and class names, digits dropped (`post-17` and `post-18` are alike) and an entry's filing left out
 * (ENTRY_STATE_CLASS), in any order.
 */
function signature(element: Element): string {
  const words = (element.getAttribute('class') ?? '').split(/\s+/)
    .filter((word) => !ENTRY_STATE_CLASS.test(word)).map((word) => word.replace(/\d+/g, '')).filter(Boolean);
  return `${element.localName}.${[...new Set(words)].sort().join('.')}`;
}

function isFrame(element: Element): boolean {
  if (FRAME.has(element.localName)) return true;
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const role = element.getAttribute('role');
  return role !== null && FRAME_ROLES.has(role.trim().toLowerCase());
}

const COMMENT_WORDS = /(?:^|[^a-z])comments?(?:[^a-z]|$)/i;

/**
 * Removes the readers' comment sections (an element whose class or id says comments) from a region that stands in
 * for an article Readability kept: a blog's `<main>` holds the post and its hundred comments, and the post is what a
 * reader converts (as the run of comments never stands in for such an article, `entriesRatio`). A section that holds
 * the article's opening (`opening`: its first words, lower-cased and joined by spaces, as `lowerCaseWords` reads them)
 * is the article's own wrapper, not its comments, and stays.
 */
export function removeCommentSections(region: Element, opening: string): void {
  const isComments = (element: Element) => COMMENT_WORDS.test(`${element.getAttribute('class') ?? ''} ${element.id}`);
  const holdsOpening = (element: Element) => lowerCaseWords(element.textContent ?? '').join(' ').includes(opening);
  const visit = (element: Element) => {
    const children = childElements(element);
    // A thread whose opening post is itself one of the "comments" (forum software names every post so): its replies
    // are the content, and nothing here goes.
    const comments = children.filter(isComments);
    if (comments.length > 1 && comments.some(holdsOpening)) return;
    for (const child of children) {
      if (isComments(child) && !holdsOpening(child)) child.remove();
      else visit(child);
    }
  };
  visit(region);
}

function inComments(element: Element): boolean {
  for (let at: Element | null = element; at && at.localName !== 'body'; at = at.parentElement) {
    if (COMMENT_WORDS.test(`${at.getAttribute('class') ?? ''} ${at.id}`)) return true;
  }
  return false;
}

function keptElement(parent: Element): Element {
  if (TABLE_PARTS.has(parent.localName) && parent.parentElement?.localName === 'table') return parent.parentElement;
  return parent;
}
