export * from './markup-depth.ts';
export * from './markup-scans.ts';
export * from './noscript.ts';
import { JSDOM, VirtualConsole } from 'jsdom';
import { indexNamedItems } from './named-items.ts';
import { skipSiblingWalks } from './sibling-walks.ts';
import { findAttributesByName } from './attribute-lookups.ts';

// Before any document is parsed in this thread: a collection's `length` costs its size otherwise (named-items.ts),
// a removal or insertion the number of its siblings (sibling-walks.ts), and an attribute set or removed the number
// of its element's attributes (attribute-lookups.ts).
indexNamedItems();
skipSiblingWalks();
findAttributesByName();

type DomWindow = JSDOM['window'];

/**
 * A jsdom window shared by everything that parses or sanitises HTML in a thread, replaced after a while.
 *
 * - Building a window costs more than parsing a whole article into one (≈14 ms against ≈10 ms for a 1,500-word
 *   page), and a window holds megabytes; a document made by the window's DOMParser costs neither.
 * - Nodes of one window are instances of that window's interfaces, so a DOMPurify bound to a document's window can
 *   sanitise the document's nodes in place, without serialising and parsing them again (`windowOf`).
 * - But a window keeps every document that ever ran a selector, a NodeIterator or an attribute change in it: jsdom
 *   registers listeners on the window per document (measured: ≈0.8 MB kept per 12 kB page, forever). So a window
 *   is replaced once it has parsed `RECYCLE_AFTER_CHARACTERS` of HTML or `RECYCLE_AFTER_DOCUMENTS` documents; the
 *   old one goes with the last of its documents. Memory stays bounded, and a new window costs under half a
 *   millisecond a page.
 * - Nothing runs and nothing loads: a DOMParser document has scripting disabled, the window has no `resources`
 *   option, and its console is silent (pages whose CSS jsdom cannot read would otherwise flood the logs).
 * - A DOMParser document has no window of its own (`defaultView` is null) and takes the window's address as its own.
 */
export const RECYCLE_AFTER_CHARACTERS = 1_000_000;
export const RECYCLE_AFTER_DOCUMENTS = 32;

let current: { dom: JSDOM; characters: number; documents: number } | undefined;
const parsedIn = new WeakMap<Document, DomWindow>();

function windowWith(characters: number): JSDOM {
  if (!current || current.characters >= RECYCLE_AFTER_CHARACTERS || current.documents >= RECYCLE_AFTER_DOCUMENTS) {
    current = {
      dom: new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>', { virtualConsole: new VirtualConsole() }),
      characters: 0,
      documents: 0,
    };
  }
  current.characters += characters;
  current.documents += 1;
  return current.dom;
}

/** The window to parse `html` in, for a library that parses by itself (DOMPurify's string path). */
export function windowFor(html: string): DomWindow {
  return windowWith(html.length).window;
}

/**
 * Parses a whole HTML document. `url` (http or https) is the document's address, which relative links in it resolve
 * against (`baseURI`, unless the page has a `<base>`); without one the document is at about:blank.
 */
export function parseHtmlDocument(html: string, url: string | null = null): Document {
  const dom = windowWith(html.length);
  dom.reconfigure({ url: url && /^https?:/i.test(url) ? url : 'about:blank' });
  const document = new dom.window.DOMParser().parseFromString(html, 'text/html');
  parsedIn.set(document, dom.window);
  return document;
}

/**
 * The address a document's relative links resolve against: `document.baseURI`, which jsdom answers with
 * `querySelector("base[href]")` over the whole document at every read. A page without a `<base>` (most) was walked to its
 * end each time: 6 ms a read on a large page (measured; 2 % of extraction's time over WCXB's pages). This walk stops at
 * the first `<base>`, which belongs in the head; without one the document's own address is its base, as jsdom's
 * fallback gives it (an about:blank document, whose fallback may be another's, is left to jsdom).
 */
export function baseAddress(document: Document): string {
  if (document.URL === 'about:blank' || hasBaseWithHref(document)) return document.baseURI;
  return document.URL;
}

function hasBaseWithHref(parent: ParentNode): boolean {
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    if (child.localName === 'base' && child.hasAttribute('href')) return true;
    if (child.firstElementChild && hasBaseWithHref(child)) return true;
  }
  return false;
}

/**
 * The elements under `root` whose local name is one of `names`, in document order. jsdom's `querySelectorAll` with a
 * selector list costs about five times as much (measured: 320 µs against 65 µs on a 1,500-word page; such a list
 * answered one name at a time over the whole tree was an eighth of a 20,000-row table's docx), and extraction asks
 * for such lists hundreds of times a page.
 */
export function elementsNamed(root: ParentNode, names: ReadonlySet<string>): Element[] {
  return elementsWhere(root, (element) => names.has(element.localName));
}

/**
 * The elements under `root` that `keep` accepts, in document order: the one walk every such list is made by. A
 * TreeWalker, because jsdom moves it through its own tree, where a walk by `firstElementChild` and
 * `nextElementSibling` crosses from each wrapper to its node and back twice an element (measured on 150 WCXB pages:
 * 1.41 against 1.94 ms for one list of names, 0.99 against 1.98 ms for the elements with a `style`).
 */
export function elementsWhere(root: ParentNode, keep: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const document = (root as Node).ownerDocument ?? (root as Document);
  const walker = document.createTreeWalker(root as Node, SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (keep(node as Element)) found.push(node as Element);
  return found;
}

/** NodeFilter.SHOW_ELEMENT (Node has no NodeFilter global). */
const SHOW_ELEMENT = 0x1;

/** A set of local names, for `elementsNamed` and its kin. */
export const tagSet = (...localNames: string[]): ReadonlySet<string> => new Set(localNames);

/** The window a document from `parseHtmlDocument` was parsed in (undefined for any other document). */
export function windowOf(document: Document): DomWindow | undefined {
  return parsedIn.get(document);
}
export * from './light.ts';
export * from './table-grid.ts';
export * from './code-lines.ts';

/**
 * An element's child elements, in order. jsdom's `children` is a live HTMLCollection behind a Proxy, and each read of
 * its `length` through the Proxy looks the name up among the children (`namedItem`), so `Array.from(element.children)`
 * is quadratic: 7 s for a container of 20,000 elements (measured), against milliseconds walking the siblings. Worse,
 * once an element's `children` (or `childElementCount`, which reads it) has been asked for, jsdom rebuilds that
 * collection at every change to the element's children: Readability then moving 10,000 of them out took 2.1 s against
 * 0.1 s (measured). So a jsdom element is walked by its siblings and its `children` never touched.
 */
export function childElements<E>(parent: { readonly children: ArrayLike<E> }): E[] {
  // A light element's children (light.ts) are a plain array already; a light element has no `firstElementChild`
  // (`in` asks without calling jsdom's getter).
  if (!('firstElementChild' in parent)) return [...(parent.children as E[])];
  const children: E[] = [];
  for (let child = (parent as unknown as Element).firstElementChild; child; child = child.nextElementSibling) children.push(child as E);
  return children;
}
