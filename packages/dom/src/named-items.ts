import { createRequire } from 'node:module';

/**
 * jsdom's `HTMLCollection` (`children`, `getElementsByTagName`) answers every property read that is not an index —
 * `length` included — through a proxy that first asks `namedItem(name)`, which reads the `id` and `name` of every
 * element in the collection, and only then finds `length` on the prototype (the Web IDL "named properties" rule, as
 * jsdom 29.1.1 generates it). So `collection.length` costs the collection's size, and a loop that reads it at every
 * step — Readability's over a table's rows, over a candidate's siblings, `Array.from` of its images — costs its
 * square: a page of 20,000 figures took 200 s to extract, a table of 20,000 rows 58 s.
 *
 * Here `namedItem` answers from an index of the collection's names, built once for each state of the collection:
 * the first element, in tree order, whose id or (HTML elements) name is the key — the same answer as jsdom's scan.
 * The collection re-reads its elements whenever anything under its root changes, attributes included (jsdom bumps
 * the root's version on both), and the index is kept for the state it was built from, so it is never stale.
 */
interface CollectionImpl {
  _list: ImplElement[];
  _version: number;
  _update(): void;
  namedItem(key: string): ImplElement | null;
  [INDEX]?: { version: number; byName: Map<string, ImplElement> };
}
interface ImplElement {
  _namespaceURI: string | null;
  getAttributeNS(namespace: string | null, name: string): string | null;
}

const INDEX = Symbol('folio.namedItems');
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const require = createRequire(import.meta.url);

export function indexNamedItems(): void {
  const { implementation } = require('jsdom/lib/jsdom/living/nodes/HTMLCollection-impl.js') as {
    implementation: { prototype: CollectionImpl };
  };
  if (Object.prototype.hasOwnProperty.call(implementation.prototype, INDEX)) return;
  Object.defineProperty(implementation.prototype, INDEX, { value: undefined, writable: true });
  implementation.prototype.namedItem = function namedItem(this: CollectionImpl, key: string): ImplElement | null {
    if (key === '') return null;
    this._update();
    let index = this[INDEX];
    if (!index || index.version !== this._version) {
      const byName = new Map<string, ImplElement>();
      for (const element of this._list) {
        const id = element.getAttributeNS(null, 'id');
        if (id && !byName.has(id)) byName.set(id, element);
        if (element._namespaceURI === HTML_NS) {
          const name = element.getAttributeNS(null, 'name');
          if (name && !byName.has(name)) byName.set(name, element);
        }
      }
      this[INDEX] = index = { version: this._version, byName };
    }
    return index.byName.get(key) ?? null;
  };
}
