import { describe, expect, it } from 'vitest';
import { parseHtmlDocument, removeNodes } from './index.ts';

describe('removeNodes', () => {
  it('takes out exactly the nodes given, the rest staying in order, whether a parent loses a few children or many', () => {
    for (const count of [3, 40, 2000]) {
      const doc = parseHtmlDocument(`<main>${Array.from({ length: count }, (_, i) => `<p>p${i}</p><noscript><img src="/${i}.png"></noscript>text${i}`).join('')}</main><aside><noscript>one</noscript><b>stays</b></aside>`);
      const main = doc.querySelector('main')!;
      const originals = Array.from(main.childNodes).filter((node) => node.nodeName !== 'NOSCRIPT');
      const doomed = Array.from(doc.getElementsByTagName('noscript'));
      const detached = doc.createElement('noscript'); // no parent: nothing to do
      removeNodes([...doomed, detached, doomed[0]!]); // a node named twice goes once
      expect(doc.getElementsByTagName('noscript')).toHaveLength(0);
      expect(Array.from(main.childNodes)).toEqual(originals); // the same nodes, not copies, in their order
      expect(main.textContent).toBe(Array.from({ length: count }, (_, i) => `p${i}text${i}`).join(''));
      expect(doc.querySelector('aside')!.innerHTML).toBe('<b>stays</b>');
    }
  });

  it('removes a node inside another removed node without harm', () => {
    const doc = parseHtmlDocument(`<div>${'<section><span>x</span></section>'.repeat(40)}<p>kept</p></div>`);
    removeNodes([...Array.from(doc.querySelectorAll('span')), ...Array.from(doc.querySelectorAll('section'))]);
    expect(doc.querySelector('div')!.innerHTML).toBe('<p>kept</p>');
  });
});
