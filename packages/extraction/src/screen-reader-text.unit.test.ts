import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './index.ts';
import { removeAnnouncements, removeScreenReaderText } from './screen-reader-text.ts';
import { nodeToText } from './text.ts';

/** The text of some content after `remove` ran over it, and what it counted. */
function cleaned(html: string, remove: (root: Element) => number): { text: string; removed: number } {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  const removed = remove(root);
  return { text: nodeToText(root), removed };
}

/** The text of some content without what it tells screen readers alone. */
const withoutScreenReaderText = (html: string) => cleaned(html, removeScreenReaderText);
/** The text of some content without its live regions' announcements. */
const withoutAnnouncements = (html: string) => cleaned(html, removeAnnouncements);

describe('removeScreenReaderText', () => {
  it('removes a hidden copy of the text its parent shows', () => {
    expect(withoutScreenReaderText('<p><span class="bold">EUR 163.12<span class="clipped">EUR 163.12</span></span> incl. VAT</p>')).toEqual({ text: 'EUR 163.12 incl. VAT', removed: 1 });
  });

  it('removes a hidden copy standing beside the text it repeats', () => {
    expect(withoutScreenReaderText('<h3><span>Trail 25 Pack</span> <span class="sr-only">Trail 25  pack</span></h3>')).toEqual({ text: 'Trail 25 Pack', removed: 1 });
    expect(withoutScreenReaderText('<div><span class="visually-hidden">Price</span><span>Price</span></div>').text).toBe('Price');
  });

  it('keeps what a screen reader alone is told in the text', () => {
    expect(withoutScreenReaderText('<p><span class="screen-reader-text">Rating:</span> 4.5 of 5</p>')).toEqual({ text: 'Rating: 4.5 of 5', removed: 0 });
    expect(withoutScreenReaderText('<p><span class="sr-only">Original price was: $30.00.</span><del>$30.00</del></p>').removed).toBe(0);
  });

  it('removes what a link, a button, a label or a summary announces about itself', () => {
    expect(withoutScreenReaderText('<p>See <a href="/x">the plan<span class="sr-only"> (opens in a new tab)</span></a>.</p>')).toEqual({ text: 'See the plan.', removed: 1 });
    expect(withoutScreenReaderText('<ul><li><a href="/p?c=oak"><img src="/oak.jpg" alt=""><span class="visually-hidden">Option: BILLY, Bookcase, oak effect</span></a></li></ul>').removed).toBe(1);
    expect(withoutScreenReaderText('<div><button><span class="visually-hidden">Open submenu</span>+</button></div>').removed).toBe(1);
    expect(withoutScreenReaderText('<fieldset><input type="radio" id="s"><label for="s">1 lb<span class="visually-hidden">Variant sold out or unavailable</span></label></fieldset>').text).toBe('1 lb');
    expect(withoutScreenReaderText('<details><summary>Sizes<span class="sr-only">Show</span></summary><p>S, M, L</p></details>').text).not.toContain('Show');
    // A skip link is a control itself.
    expect(withoutScreenReaderText('<a class="sr-only" href="#main">Skip to content</a><p>Body text.</p>').text).toBe('Body text.');
  });

  it('keeps the only copy left, and copies that are not next to each other', () => {
    expect(withoutScreenReaderText('<div><span class="clipped">Catena DID 520</span></div>')).toEqual({ text: 'Catena DID 520', removed: 0 });
    expect(withoutScreenReaderText('<div><span>Blue</span><span>, size 9</span><span class="sr-only">Blue</span></div>').removed).toBe(0);
  });

  it('keeps an ordinary element that repeats its neighbour', () => {
    expect(withoutScreenReaderText('<ul><li>Yes</li><li>Yes</li></ul>')).toEqual({ text: '• Yes\n• Yes', removed: 0 });
  });

  it('leaves one copy in what extraction gives', () => {
    // Paragraphs of their own: the same paragraph printed again would go as a copy (duplicate-blocks.ts).
    const story = (from: number) => [from, from + 1, from + 2].map((n) => `<p>The harbour commission met on Tuesday, for the ${n}th time, to weigh a plan that would rebuild the old sea wall before the winter storms arrive.</p>`).join('');
    const article = extractArticle(`<html><head><title>Sea wall</title></head><body><article><h1>Sea wall</h1>${story(1)}<p>Estimate: <span>EUR 4.2 million<span class="sr-only">EUR 4.2 million</span></span></p>${story(4)}</article></body></html>`, { url: 'https://news.example.com/sea-wall' });
    expect(article.text).toContain('Estimate: EUR 4.2 million\n');
    expect(article.text).not.toContain('millionEUR');
    expect(article.contentHtml.match(/4\.2 million/g)).toHaveLength(1);
  });
});

describe('removeAnnouncements', () => {
  it('removes what a live region tells a screen reader about what just happened', () => {
    expect(withoutAnnouncements('<div role="status" aria-live="polite">loaded 338 results</div><p>Trail running shoes.</p>'))
      .toEqual({ text: 'Trail running shoes.', removed: 1 });
    expect(withoutAnnouncements('<p>Sock</p><div class="wt-display-none" role="alert">Please enter a valid email address.</div>').text).toBe('Sock');
    expect(withoutAnnouncements('<section><span aria-live="assertive">Added to Cart</span><h2>Kettle</h2></section>').text).toBe('Kettle');
  });

  it('keeps a long callout set as an alert, a region with a picture or a table, and regions that announce nothing', () => {
    const note = '<div role="alert">Note: new users can try the app for the first two weeks and cancel if they are not satisfied.</div>';
    expect(withoutAnnouncements(note).removed).toBe(0);
    expect(withoutAnnouncements('<div role="status"><img src="/chart.png" alt="Sales by month"></div>').removed).toBe(0);
    expect(withoutAnnouncements('<div aria-live="off">Slide 1 of 8</div><div role="log">Ann: see you at nine</div>').removed).toBe(0);
  });
});
