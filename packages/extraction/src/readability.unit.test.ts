import { Readability } from '@mozilla/readability';
import { describe, expect, it } from 'vitest';
import { parseDocument } from './document.ts';
import { FastReadability } from './readability.ts';
import { page, prose } from './test-pages.ts';

/** Readability's own methods, as published, to ask the same questions of the same elements. */
const published = Readability.prototype as unknown as Record<string, (this: unknown, ...args: unknown[]) => unknown>;

/** Elements that sit on each side of every question the overrides answer differently from how Readability asks it. */
const EDGES = `
  <div id="empty"></div>
  <div id="spaces"> \n\t </div>
  <div id="nbsp">&nbsp;</div>
  <div id="ideographic-space">\u3000\ufeff</div>
  <div id="comment-only"><!-- a comment holds no text --></div>
  <div id="breaks"><br><hr><br></div>
  <div id="nested-breaks"><span><br></span><br></div>
  <div id="nested-breaks-deeper"><span><br><br></span></div>
  <div id="deep-text"><div><div><span></span><span> x </span></div></div></div>
  <div id="image"><img src="a.png"></div>
  <section id="svg"><svg><text>drawn</text></svg></section>
  <div id="svg-empty"><svg class="byline"><g></g></svg></div>
  <h2 id="heading-empty">  </h2>
  <p id="display-none" style="display: none">hidden</p>
  <p id="display-none-spaced" style="color: red;  display : none ">hidden</p>
  <p id="display-upper" style="DISPLAY:NONE">jsdom reads this one as shown</p>
  <p id="visibility-hidden" style="visibility:hidden">hidden</p>
  <p id="display-block" style="display:block">shown</p>
  <p id="bad-style" style="display:">shown</p>
  <p id="hidden-attribute" hidden>hidden</p>
  <p id="aria-hidden" aria-hidden="true">hidden</p>
  <p id="aria-hidden-false" aria-hidden="false">shown</p>
  <p id="aria-fallback" aria-hidden="true" class="mwe-math-fallback-image-inline">shown</p>
  <a id="rel-author" rel="author">Ada Lovelace</a>
  <span id="itemprop-author" itemprop="author name">Grace Hopper</span>
  <span id="itemprop-author-empty" itemprop="author"> </span>
  <div class="byline" id="byline-long">${'word '.repeat(30)}</div>
  <div class="post-author" id="byline-short">By Ann</div>
  <div class="author" id="byline-99"> ${'a'.repeat(99)} </div>
  <div class="author" id="byline-100">${'a'.repeat(100)}</div>
  <div class="dateline" id="byline-empty"></div>
  <div class="writtenby"><div class="p-author">Nested <b>author</b></div></div>
  <math id="math"><mi>x</mi></math>
`;

const documents = () => [
  parseDocument(page({ before: '<nav><a href="/">Home</a></nav>', article: prose(6), after: EDGES }), 'https://example.com/a'),
  parseDocument(`<html><body>${EDGES}<table><tr><td class="author">Tab</td></tr></table></body></html>`, 'https://example.com/b'),
];

describe('FastReadability: the same answers as Readability, from cheaper questions', () => {
  it('finds every element empty, visible or a byline exactly as Readability does', () => {
    let compared = 0;
    for (const document of documents()) {
      const fast = new FastReadability(document);
      for (const element of Array.from(document.querySelectorAll('*'))) {
        const matchString = `${element.className} ${element.id}`;
        expect.soft(fast._isElementWithoutContent(element), `empty: ${element.outerHTML.slice(0, 80)}`).toBe(
          published._isElementWithoutContent!.call(fast, element),
        );
        // Readability answers with a truthy value; it only ever asks `if (!…)`.
        expect.soft(fast._isProbablyVisible(element), `visible: ${element.outerHTML.slice(0, 80)}`).toBe(
          Boolean(published._isProbablyVisible!.call(fast, element)),
        );
        for (const asked of [matchString, 'byline', 'nothing']) {
          expect.soft(fast._isValidByline(element, asked), `byline (${asked}): ${element.outerHTML.slice(0, 80)}`).toBe(
            published._isValidByline!.call(fast, element, asked),
          );
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('answers the edge cases as a reader would: whitespace is empty, a nested line break is no content, a style hides', () => {
    const [document] = documents();
    const fast = new FastReadability(document!);
    const byId = (id: string) => document!.getElementById(id)!;
    expect(['empty', 'spaces', 'nbsp', 'ideographic-space', 'comment-only', 'breaks', 'nested-breaks', 'heading-empty'].map((id) => fast._isElementWithoutContent(byId(id)))).toEqual(Array(8).fill(true));
    // Two elements under one child that is not a break: the count of breaks below is not the count of children.
    expect(['deep-text', 'image', 'svg', 'nested-breaks-deeper'].map((id) => fast._isElementWithoutContent(byId(id)))).toEqual([false, false, false, false]);
    expect(['display-none', 'display-none-spaced', 'visibility-hidden', 'hidden-attribute', 'aria-hidden'].map((id) => fast._isProbablyVisible(byId(id)))).toEqual(Array(5).fill(false));
    expect(['display-block', 'bad-style', 'aria-hidden-false', 'aria-fallback'].map((id) => fast._isProbablyVisible(byId(id)))).toEqual(Array(4).fill(true));
    expect(fast._isValidByline(byId('byline-short'), 'post-author byline-short')).toBe(true);
    expect(fast._isValidByline(byId('byline-long'), 'byline byline-long')).toBe(false);
    expect(fast._isValidByline(byId('itemprop-author-empty'), '')).toBe(false);
  });

  it('collects elements by tag name in document order, as its selector list did', () => {
    const [document] = documents();
    const fast = new FastReadability(document!);
    for (const tags of [['p'], ['H2', 'a'], ['br', 'hr', 'svg'], ['math', 'span']]) {
      const expected = Array.from(document!.body.querySelectorAll(tags.join(',')));
      expect(fast._getAllNodesWithTag(document!.body, tags)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
  });
});
