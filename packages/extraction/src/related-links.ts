import { linkDensity, normalisedText, words } from './text-measure.ts';
import { baseAddress, childElements } from '@folio/dom';
import { closestNamed, elementsNamed, firstNamed, HEADINGS, tagSet } from './elements.ts';

/**
 * Lists and lines of links to the site's other stories ("You may also like…", "More:", "Related: …", a rail of
 * headlines) that sit inside the article's container. They are recognised by what they are made of — nearly all
 * of their text is link text, in short items, pointing into the same site — together with the short label that
 * introduces them. Links out of the site (sources, products in a gift guide, a quote to tweet) are the article's
 * own and stay.
 */
const LIST_LINK_DENSITY = 0.8;
const LINE_LINK_DENSITY = 0.9;
const MAX_LINE_WORDS = 25;
const MAX_ITEM_WORDS = 25;
const MAX_LABEL_WORDS = 6;

/** "Related: …", "Read more: …", and their equivalents in a few languages, followed by a link. */
const LINK_PREFIX = /^(?:related|related stories|related articles|read more|read also|also read|see more|see also|more|watch|listen|recommended|don['’]t miss|must read|lesen sie auch|mehr zum thema|leia também|leia mais|veja também|baca juga|lire aussi|à lire aussi|ver también|lee también|leggi anche)\s*[:：]/i;

const BLOCKS_OF_LINKS = tagSet('p', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'div', 'dt', 'dd');
const LISTS = tagSet('ul', 'ol');
const LI = tagSet('li');
const LI_TABLE_BLOCKQUOTE = tagSet('li', 'table', 'blockquote');
const A = tagSet('a');
const P = tagSet('p');
const IMG = tagSet('img');
const BR = tagSet('br');
const LINKS_AND_MEDIA = tagSet('a', 'img', 'picture', 'video', 'iframe');

/**
 * Beyond this share of the content's words, what reads as lists and lines of links to the site's own pages is the
 * content: a category's index of its pages, a site's list of its news. A story's "More on this" stays well under it;
 * a short story under a long rail of headlines comes near (two thirds of its words), which is why the bar is high.
 */
export const LINKS_ARE_CONTENT_SHARE = 0.8;

/**
 * `entries`, the page's run of like blocks when it sits inside `root` (a grid of products, a list of stories), keeps
 * its entries' titles: a heading that links to its entry is that entry's name, not a line of links to other stories.
 * Nothing goes when what would go is most of the content (LINKS_ARE_CONTENT_SHARE).
 */
export function removeRelatedLinks(root: Element, entries?: Element): void {
  const going = relatedLinksOf(root, entries);
  let linked = 0;
  for (const element of going.keys()) linked += words(element);
  if (linked <= words(root) * LINKS_ARE_CONTENT_SHARE) {
    for (const [element, asList] of going) if (root.contains(element)) removeWithLabel(element, asList);
  }
  removeInlineCards(root);
}

/**
 * The lists and lines of links to the site's own pages under `root`, none inside another, in document order, each
 * with whether it goes as a list (`removeWithLabel`).
 */
function relatedLinksOf(root: Element, entries: Element | undefined): Map<Element, boolean> {
  const isEntryTitle = (element: Element) => entries !== undefined && entries.contains(element) && holdsLinkedHeading(element);
  const address = baseAddress(root.ownerDocument);
  const site = new Site(address);
  const here = URL.parse(address);
  const found = new Map<Element, boolean>();
  const isInside = (element: Element) => {
    for (let at: Element | null = element; at && at !== root; at = at.parentElement) if (found.has(at)) return true;
    return false;
  };
  for (const list of elementsNamed(root, LISTS)) {
    if (list.parentElement && closestNamed(list.parentElement, LI)) continue;
    if (isLinkList(list) && site.linksAreInternal(list) && !isEntryTitle(list)) found.set(list, false);
  }
  for (const block of elementsNamed(root, BLOCKS_OF_LINKS)) {
    if (closestNamed(block, LI_TABLE_BLOCKQUOTE) || hasBlockChildren(block) || isInside(block)) continue;
    if (isSectionHeading(block, here) || isDefinedTerm(block)) continue;
    // Asked last, of what would go: it walks the block's links.
    if ((isLinkLine(block) || isPrefixedLine(block)) && site.linksAreInternal(block)) {
      if (!isEntryTitle(block)) found.set(block, false);
    } else if (isLinesOfLinks(block) && site.linksAreInternal(block) && !isEntryTitle(block)) found.set(block, true);
  }
  return found;
}

/**
 * A heading whose links all lead to a place in the page itself — its own section, by the permalink a documentation
 * generator puts around or beside its text (`<h2 id="examples"><a href="#examples">Examples</a></h2>`) — names the
 * section below it; it links nowhere else.
 */
function isSectionHeading(block: Element, here: URL | null): boolean {
  if (!HEADINGS.has(block.localName)) return false;
  const links = elementsNamed(block, A);
  return links.length > 0 && links.every((a) => leadsIntoPage(a.getAttribute('href') ?? '', here));
}

/**
 * Whether an address is a place in the page itself: a bare fragment, or the page's own address (`here`, parsed once)
 * with one. Its query counts: a forum's `?p=123#p123` names another post's page.
 */
function leadsIntoPage(href: string, here: URL | null): boolean {
  const trimmed = href.trim();
  if (trimmed.startsWith('#')) return true;
  if (here === null || !trimmed.includes('#')) return false;
  const target = URL.parse(trimmed, here.href);
  return target !== null && target.origin === here.origin && target.pathname === here.pathname && target.search === here.search;
}

/**
 * A term of a definition list followed by its definition (an API reference's `<dt><a>WebSocket.send()</a></dt>` and
 * what the method does) is the name of what the definition describes, linked to its own page as an entry's title
 * is: not a line of links to other stories.
 */
function isDefinedTerm(block: Element): boolean {
  if (block.localName !== 'dt') return false;
  // Several terms may share a definition; the walk is bounded, so that a list of thousands of terms without one is
  // not walked again from each of them.
  let next = block.nextElementSibling;
  for (let terms = 0; next && next.localName === 'dt' && terms < MAX_SHARED_TERMS; terms++) next = next.nextElementSibling;
  return next !== null && next.localName === 'dd' && words(next) > 0;
}

/** Terms in a row that one definition may follow, at most. */
const MAX_SHARED_TERMS = 8;

function isLinkList(list: Element): boolean {
  const items = childElements(list).filter((c) => c.localName === 'li');
  if (items.length === 0) return false;
  if (!items.every((item) => firstNamed(item, A) !== null && words(item) <= MAX_ITEM_WORDS)) return false;
  return linkDensity(list) >= LIST_LINK_DENSITY;
}

function isLinkLine(block: Element): boolean {
  const n = words(block);
  return n > 0 && n <= MAX_LINE_WORDS && firstNamed(block, A) !== null && linkDensity(block) >= LINE_LINK_DENSITY;
}

/**
 * A list written as lines: several lines broken by `<br>`, each short and holding a link, nearly all link text
 * together ("DON'T MISS" and three headlines, one a line).
 */
function isLinesOfLinks(block: Element): boolean {
  if (firstNamed(block, BR) === null) return false;
  const lines = linesOf(block).filter((line) => words(line.text) > 0);
  if (lines.length < 2) return false;
  if (!lines.every((line) => line.links > 0 && words(line.text) <= MAX_ITEM_WORDS)) return false;
  // Lines of links to files (a course's handouts, a report's PDFs) are what the page offers, not other stories.
  if (elementsNamed(block, A).some((a) => FILE_LINK.test(a.getAttribute('href') ?? ''))) return false;
  return linkDensity(block) >= LIST_LINK_DENSITY;
}

const FILE_LINK = /\.(?:pdf|docx?|xlsx?|pptx?|odt|ods|odp|csv|zip|epub)(?:[?#]|$)/i;

/** A block's lines as its `<br>` elements break them: the text of each and how many links it holds. */
function linesOf(block: Element): Array<{ text: string; links: number }> {
  const lines = [{ text: '', links: 0 }];
  const visit = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) lines[lines.length - 1]!.text += child.textContent ?? '';
      else if (child.nodeType === 1) {
        const name = (child as Element).localName;
        if (name === 'br') lines.push({ text: '', links: 0 });
        else {
          if (name === 'a') lines[lines.length - 1]!.links++;
          visit(child);
        }
      }
    }
  };
  visit(block);
  return lines;
}

function isPrefixedLine(block: Element): boolean {
  return firstNamed(block, A) !== null && words(block) <= MAX_LINE_WORDS * 2 && LINK_PREFIX.test(normalisedText(block));
}

/**
 * Removes a block and the short label just before it ("More:", "DON'T MISS", "You may also like…"). A short
 * heading counts as the label of a list of links ("Most read"); a single line of links needs a label that says
 * it introduces something (a colon, an ellipsis, capitals), so that a section heading above it stays.
 */
export function removeWithLabel(block: Element, asList = false): void {
  const previous = block.previousElementSibling;
  const parent = block.parentElement;
  const isList = asList || block.localName === 'ul' || block.localName === 'ol';
  block.remove();
  if (previous && isLabel(previous, isList)) previous.remove();
  if (parent && parent.firstElementChild === null && normalisedText(parent) === '' && parent.localName !== 'div') parent.remove();
}

function isLabel(element: Element, headingsCount: boolean): boolean {
  if (firstNamed(element, LINKS_AND_MEDIA) !== null) return false;
  const text = normalisedText(element);
  const n = words(text);
  if (n === 0 || n > MAX_LABEL_WORDS) return false;
  if (/[:：…]$|\.\.\.$/.test(text) || (text === text.toUpperCase() && /\p{Lu}/u.test(text))) return true;
  return headingsCount && /^h[2-6]$/.test(element.localName);
}

function hasBlockChildren(element: Element): boolean {
  for (const child of childElements(element)) {
    if (/^(?:p|div|ul|ol|table|blockquote|figure|h[1-6]|section|article|pre)$/.test(child.localName)) return true;
  }
  return false;
}

/**
 * Hover cards written inline into a sentence (a person's name followed by their photo and links to their other
 * stories): an inline element inside a paragraph that holds an image and several links and little else.
 */
function removeInlineCards(root: Element): void {
  for (const image of elementsNamed(root, IMG)) {
    const paragraph = image.parentElement && closestNamed(image.parentElement, P);
    if (!paragraph) continue;
    // The smallest inline element around the image that is mostly links: the card, without the name before it.
    for (let card: Element | null = image.parentElement; card && card !== paragraph; card = card.parentElement) {
      if (elementsNamed(card, A).length >= 2 && linkDensity(card) >= LIST_LINK_DENSITY) {
        if (root.contains(card)) card.remove();
        break;
      }
    }
  }
}

/** The site a page belongs to, to tell its own links from links out. */
export class Site {
  private readonly domain: string | null;

  constructor(pageUrl: string) {
    this.domain = siteDomain(pageUrl);
  }

  /**
   * Whether most of an element's link text points into this site: always when no link points out (none at all, as in
   * cards whose links the cleanup took), or when the page's address is unknown.
   */
  linksAreInternal(element: Element): boolean {
    if (!this.domain) return true;
    let internal = 0;
    let external = 0;
    for (const a of elementsNamed(element, A)) {
      const weight = (a.textContent ?? '').trim().length || 1;
      if (this.holds(a.getAttribute('href') ?? '')) internal += weight;
      else external += weight;
    }
    return internal > external || external === 0;
  }

  /** Whether an address (relative ones included) points into this site (always, when the page's address is unknown). */
  holds(href: string): boolean {
    if (!this.domain) return true;
    const domain = siteDomain(href, this.domain);
    return domain === null || domain === this.domain;
  }
}

/** The registrable part of a host, near enough: the last two labels, or three under a short second level (co.uk). */
function siteDomain(url: string, relativeTo?: string): string | null {
  let host: string;
  try {
    host = new URL(url, relativeTo ? `https://${relativeTo}/` : undefined).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (!host) return null;
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length <= 2) return labels.join('.');
  const secondLevel = labels[labels.length - 2]!;
  const keep = secondLevel.length <= 3 && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** Whether a link in the element is a heading's: one around a heading (`<a><h4>…`) or inside one (`<h3><a>…`). */
function holdsLinkedHeading(element: Element): boolean {
  return elementsNamed(element, A).some((a) => firstNamed(a, HEADINGS) !== null || closestNamed(a, HEADINGS) !== null);
}
