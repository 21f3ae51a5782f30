import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHtmlDocument } from './index.ts';

const require = createRequire(import.meta.url);
const { implementation: ElementImpl } = require('jsdom/lib/jsdom/living/nodes/Element-impl.js') as {
  implementation: { prototype: { getAttributeNS(namespace: string | null, name: string): string | null } };
};

/** jsdom's own answer (its scan, as in jsdom 29.1.1): the first element in order whose id, or HTML name, is the key. */
function scanned(collection: HTMLCollection, key: string): Element | null {
  if (key === '') return null;
  for (const element of Array.prototype.slice.call(collection) as Element[]) {
    if (element.getAttribute('id') === key) return element;
    if (element.namespaceURI === 'http://www.w3.org/1999/xhtml' && element.getAttribute('name') === key) return element;
  }
  return null;
}

describe('HTMLCollection named items (named-items.ts)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers namedItem and named properties as jsdom’s scan does, as the tree and its attributes change', () => {
    const doc = parseHtmlDocument('<div id="root"><p name="a">1</p><p id="a">2</p><input name="q"><svg><g name="s"></g></svg><p id="">e</p><p id="length">L</p></div>');
    const root = doc.getElementById('root')!;
    const all = root.getElementsByTagName('*');
    const keys = ['a', 'q', 's', '', 'length', 'missing'];
    const check = () => {
      for (const key of keys) {
        expect(all.namedItem(key), key).toBe(scanned(all, key));
        if (key !== 'length' && key !== '') expect((all as unknown as Record<string, unknown>)[key] ?? null, key).toBe(scanned(all, key));
      }
    };
    check();
    expect(all.namedItem('a')!.textContent).toBe('1');
    expect(all.length).toBe(7); // `length` is the prototype's, an element with id "length" notwithstanding
    root.firstElementChild!.removeAttribute('name');
    check();
    expect(all.namedItem('a')!.textContent).toBe('2');
    root.querySelector('input')!.setAttribute('id', 'a');
    root.prepend(root.querySelector('input')!);
    check();
    expect(all.namedItem('a')!.localName).toBe('input');
    root.querySelector('#length')!.remove();
    check();
    expect(all.length).toBe(6);
  });

  it('reads no element’s attributes again while the collection stays as it was', () => {
    const doc = parseHtmlDocument(`<table>${'<tr><td>cell</td></tr>'.repeat(1000)}</table>`);
    const rows = doc.getElementsByTagName('tr');
    const reads = vi.spyOn(ElementImpl.prototype, 'getAttributeNS');
    let total = 0;
    for (let i = 0; i < rows.length; i++) total += rows[i]!.cells.length;
    expect(total).toBe(1000);
    // Each `rows.length` asked every row for its id and name before (two million reads); now the rows' index is built
    // once (2,000 reads), and each row's `cells` once (2 a row).
    expect(reads.mock.calls.length).toBeLessThanOrEqual(4 * 1000);
  });
});
