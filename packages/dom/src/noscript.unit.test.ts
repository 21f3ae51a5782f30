import { describe, expect, it } from 'vitest';
import { boundNoscripts } from './noscript.ts';

describe('boundNoscripts: a <noscript> is bounded as a browser bounds it', () => {
  const TAG_MANAGER = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none" /></noscript>';

  it('closes only what is left open inside it, where it ends', () => {
    expect(boundNoscripts(`${TAG_MANAGER}<p>x</p>`)).toBe(TAG_MANAGER.replace('</noscript>', '</iframe></noscript>') + '<p>x</p>');
    const closed = '<noscript><iframe src="a"></iframe><textarea>t</textarea><img src="b"></noscript><p>x</p>';
    expect(boundNoscripts(closed)).toBe(closed);
    // The first raw-text element left open reads the rest as text: the later tag is text, and only the first closes.
    expect(boundNoscripts('<noscript><title>a<iframe></noscript>')).toBe('<noscript><title>a<iframe></title></noscript>');
    // Without a `</noscript>` a browser reads the rest as the element's text as well: nothing to close it at.
    expect(boundNoscripts('<noscript><iframe/><p>x</p>')).toBe('<noscript><iframe/><p>x</p>');
  });

  it("drops one in the page's head whole, whose content the parser would move into the body", () => {
    const notice = '<noscript><br /><b>Please note that Javascript is turned off in your web browser.</b><p /></noscript>';
    const body = '<body><noscript><img src="lazy.jpg"></noscript><p>x</p></body>';
    expect(boundNoscripts(`<html><head><title>t</title>${notice}<meta charset="utf-8"></head>${body}</html>`))
      .toBe(`<html><head><title>t</title><meta charset="utf-8"></head>${body}</html>`);
    // Without a <body> tag nothing says where the head ends; one around the body's start is not the head's.
    expect(boundNoscripts(`${notice}<p>x</p>`)).toBe(`${notice}<p>x</p>`);
    expect(boundNoscripts('<noscript><body class="a"><p>x</p></noscript>')).toBe('<noscript><body class="a"><p>x</p></noscript>');
  });

  it('reads a page of many <noscript> tags once, not once a tag', () => {
    const tail = '<article><p>the words after them</p></article>';
    for (const page of ['<noscript>'.repeat(300_000), `<noscript>${'<iframe>'.repeat(300_000)}</noscript>`, '<noscript><iframe></iframe>'.repeat(100_000)]) {
      expect(boundNoscripts(page + tail)).toContain('the words after them');
    }
  });
});
