import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '@folio/dom';
import { closestNamed, descendants, elementsNamed, elementsWithAttribute, firstNamed, tagSet } from './elements.ts';

/** The walks stand in for jsdom's selector engine: on the same tree they must find what the selectors find. */
const doc = parseHtmlDocument(`<!doctype html><body>
  <article id="a" class="story"><h1>T</h1><p>one <a href="/x">x</a> <img src="i.png"></p>
  <figure><img src="f.png"><figcaption class="c">cap</figcaption></figure>
  <ul><li><p>in list</p><ul><li>nested <a>y</a></li></ul></li></ul>
  <svg><a href="#s"><text>svg link</text></a></svg><table><tr><td id="cell">c</td></tr></table></article>
  <aside><p>side</p></aside></body>`);
const article = doc.getElementById('a')!;

describe('element walks', () => {
  it('collect by local name in document order, descendants only, as querySelectorAll does', () => {
    for (const selector of ['p', 'a', 'img, figure', 'ul, ol', 'p, h1, li', 'td']) {
      const names = tagSet(...selector.split(',').map((s) => s.trim()));
      expect(elementsNamed(article, names), selector).toEqual(Array.from(article.querySelectorAll(selector)));
      expect(firstNamed(article, names), selector).toBe(article.querySelector(selector));
    }
    expect(elementsNamed(doc, tagSet('article'))).toEqual([article]);
    expect(elementsNamed(article, tagSet('article'))).toEqual([]); // not the root itself
    expect(firstNamed(article, tagSet('video'))).toBeNull();
  });

  it('find the element itself or its nearest ancestor, as closest does', () => {
    const nested = doc.querySelector('li li a')!;
    expect(closestNamed(nested, tagSet('li'))).toBe(nested.closest('li'));
    expect(closestNamed(nested, tagSet('a'))).toBe(nested);
    expect(closestNamed(nested, tagSet('table'))).toBeNull();
  });

  it('collect by attribute, and every element', () => {
    expect(elementsWithAttribute(doc.body, ['class', 'id'])).toEqual(Array.from(doc.body.querySelectorAll('[class], [id]')));
    expect(descendants(article)).toEqual(Array.from(article.querySelectorAll('*')));
  });
});
