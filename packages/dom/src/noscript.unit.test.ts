import { describe, expect, it } from 'vitest';
import { closeRawTextInNoscript } from './noscript.ts';

describe('closeRawTextInNoscript: a <noscript> ends where a browser ends it', () => {
  const TAG_MANAGER = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none" /></noscript>';

  it('closes only what is left open inside it, where it ends', () => {
    expect(closeRawTextInNoscript(`${TAG_MANAGER}<p>x</p>`)).toBe(TAG_MANAGER.replace('</noscript>', '</iframe></noscript>') + '<p>x</p>');
    const closed = '<noscript><iframe src="a"></iframe><textarea>t</textarea><img src="b"></noscript><p>x</p>';
    expect(closeRawTextInNoscript(closed)).toBe(closed);
    // The first raw-text element left open reads the rest as text: the later tag is text, and only the first closes.
    expect(closeRawTextInNoscript('<noscript><title>a<iframe></noscript>')).toBe('<noscript><title>a<iframe></title></noscript>');
    // Without a `</noscript>` a browser reads the rest as the element's text as well: nothing to close it at.
    expect(closeRawTextInNoscript('<noscript><iframe/><p>x</p>')).toBe('<noscript><iframe/><p>x</p>');
  });

  it('reads a page of many <noscript> tags once, not once a tag', () => {
    const tail = '<article><p>the words after them</p></article>';
    for (const page of ['<noscript>'.repeat(300_000), `<noscript>${'<iframe>'.repeat(300_000)}</noscript>`, '<noscript><iframe></iframe>'.repeat(100_000)]) {
      expect(closeRawTextInNoscript(page + tail)).toContain('the words after them');
    }
  });
});
