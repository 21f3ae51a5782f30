import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { separateGluedWords } from './glued-words.ts';
import { extractArticle } from './index.ts';
import { nodeToText } from './text.ts';

/** The text of some content once the words its markup runs together are set apart. */
function separated(html: string): string {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  separateGluedWords(root);
  return nodeToText(root);
}

describe('separateGluedWords', () => {
  it('sets apart words that only an inline element edge separates', () => {
    expect(separated('<a href="/p/1"><span>The North Face</span><span>Wawona 6 Tent</span></a>')).toBe('The North Face Wawona 6 Tent');
    expect(separated('<p><span>$585.00</span><span>Sleeping Capacity</span></p>')).toBe('$585.00 Sleeping Capacity');
  });

  it('leaves words alone that are one word on the page', () => {
    expect(separated('<p><b>T</b>he harbour, <i>iPhone</i>s and JavaScript</p>')).toBe('The harbour, iPhones and JavaScript');
    expect(separated('<p>Mixed<span>case</span> and <span>UPPER</span>CASE</p>')).toBe('Mixedcase and UPPERCASE');
  });

  it('leaves code as it is written', () => {
    expect(separated('<pre><code><span>get</span><span>Element</span></code></pre>')).toBe('getElement');
    expect(separated('<p>Call <code><span>parse</span><span>Json</span></code> first</p>')).toBe('Call parseJson first');
  });

  it('adds nothing where blocks or breaks already set the text apart', () => {
    const { document } = new JSDOM('<body><div id="c"><p>One line</p><p>Another</p>end<br>Next</div></body>').window;
    const root = document.getElementById('c')!;
    separateGluedWords(root);
    expect(root.innerHTML).toBe('<p>One line</p><p>Another</p>end<br>Next');
  });

  it('sets them apart in what extraction gives, html and text alike', () => {
    const story = '<p>The harbour commission met on Tuesday to weigh a plan that would rebuild the old sea wall before the winter storms arrive, and it chose a tent supplier for the works camp.</p>'.repeat(3);
    const article = extractArticle(`<html><head><title>Sea wall</title></head><body><article><h1>Sea wall</h1>${story}
      <p>The chosen tent: <a href="/p/1"><span>The North Face</span><span>Wawona 6 Tent</span></a>.</p></article></body></html>`, { url: 'https://news.example.com/sea-wall' });
    expect(article.text).toContain('The North Face Wawona 6 Tent');
    expect(article.contentHtml).toContain('<span>The North Face </span><span>Wawona 6 Tent</span>');
  });
});
