import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHtmlDocument } from './index.ts';

// The sibling walk jsdom's index makes: one `setCachedIndex` a sibling passed (symbol-tree, jsdom's own tree).
const fromJsdom = createRequire(createRequire(import.meta.url).resolve('jsdom'));
const TreeNode = fromJsdom('symbol-tree/lib/SymbolTreeNode.js') as { prototype: { setCachedIndex(...args: unknown[]): void } };
const setCachedIndex = TreeNode.prototype.setCachedIndex;
let walked = 0;
TreeNode.prototype.setCachedIndex = function counted(...args: unknown[]) {
  walked += 1;
  return setCachedIndex.apply(this, args);
};
afterEach(() => {
  walked = 0;
});

const wrapped = (count: number) => Array.from({ length: count }, (_, i) => `<span><b>${i}</b><i>.</i></span>`).join('');

describe('insertion and removal in jsdom without walking the siblings', () => {
  it('removes k of n siblings, and hoists k wrappers’ children, without walking the siblings at each change when no Range is live', () => {
    const doc = parseHtmlDocument(`<div>${wrapped(2000)}</div>`);
    const div = doc.querySelector('div')!;
    const children = div.children; // live lists, read before the changes and after them
    const childNodes = div.childNodes;
    expect([children.length, childNodes.length]).toEqual([2000, 2000]);
    walked = 0;
    // DOMPurify's unwrapping: each child moved before the wrapper's next sibling, then the wrapper removed.
    for (const span of Array.from(div.children)) {
      for (const child of Array.from(span.childNodes).reverse()) div.insertBefore(child, span.nextSibling);
      div.removeChild(span);
    }
    expect(div.innerHTML === Array.from({ length: 2000 }, (_, i) => `<b>${i}</b><i>.</i>`).join('')).toBe(true);
    for (const italic of Array.from(div.getElementsByTagName('i'))) italic.remove();
    expect(div.textContent === Array.from({ length: 2000 }, (_, i) => `${i}`).join('')).toBe(true);
    expect([children.length, childNodes.length, children[1999]!.textContent, childNodes.item(0)!.textContent]).toEqual([2000, 2000, '1999', '0']);
    // jsdom's own steps: ~2,000 siblings walked at each of 10,000 changes (24 million). Without a live Range, only
    // whole walks of a list once each: the wrappers' own children, the serialisation, the lists read again (16,000).
    expect(walked).toBeLessThan(40_000);
  });

  it('moves live Ranges’ boundaries as the DOM standard says, with the walk, where a Range can see the change', () => {
    const doc = parseHtmlDocument('<div><p>0</p><p>1</p><p>2</p><p>3</p><p>4</p><p>5</p></div><section><b>x</b><i>y</i></section>');
    const div = doc.querySelector('div')!;
    const range = doc.createRange();
    range.setStart(div, 2);
    range.setEnd(div, 5);
    div.removeChild(div.children[0]!); // before both boundaries
    expect([range.startOffset, range.endOffset]).toEqual([1, 4]);
    div.insertBefore(doc.createElement('hr'), div.children[1]!); // at the start boundary's index: only the end moves
    expect([range.startOffset, range.endOffset]).toEqual([1, 5]);
    div.removeChild(div.children[4]!); // between the boundaries
    expect([range.startOffset, range.endOffset]).toEqual([1, 4]);
    div.removeChild(div.lastElementChild!); // after both
    expect([range.startOffset, range.endOffset]).toEqual([1, 4]);
    expect(walked).toBeGreaterThan(0);

    // A boundary inside a subtree that leaves goes to the parent, at the subtree's index.
    const section = doc.querySelector('section')!;
    const inner = doc.createRange();
    inner.setStart(section.querySelector('i')!.firstChild!, 1);
    inner.collapse(true);
    section.removeChild(section.querySelector('i')!);
    expect([inner.startContainer, inner.startOffset]).toEqual([section, 1]);
  });
});
