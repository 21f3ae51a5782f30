import { describe, expect, it } from 'vitest';
import { baseAddress, childElements, parseHtmlDocument, parseLightBody, RECYCLE_AFTER_DOCUMENTS, windowFor, windowOf } from './index.ts';

describe('the thread’s window', () => {
  it('parses documents at their own address, one after another', () => {
    const a = parseHtmlDocument('<p><a href="x">x</a></p>', 'https://news.example/2024/story');
    const b = parseHtmlDocument('<p><a href="y">y</a></p>', null);
    expect(a.URL).toBe('https://news.example/2024/story');
    expect(a.querySelector('a')!.href).toBe('https://news.example/2024/x');
    expect(b.URL).toBe('about:blank');
    expect(a.querySelector('a')!.href).toBe('https://news.example/2024/x'); // the first keeps its address
    expect(a.body).toBeInstanceOf(windowOf(a)!.HTMLElement);
  });

  it('runs no script and honours a page’s own <base>', () => {
    const doc = parseHtmlDocument('<base href="/static/"><script>document.title = "ran"</script><img src="p.png">', 'https://site.example/a/b');
    expect(doc.title).toBe('');
    expect(doc.querySelector('img')!.src).toBe('https://site.example/static/p.png');
    expect(parseHtmlDocument('<p>x</p>', 'file:///etc/passwd').URL).toBe('about:blank');
  });

  it('moves to a new window after a while, and documents of the old one keep working', () => {
    const first = parseHtmlDocument('<p id="p">kept</p>');
    const windows = new Set([windowOf(first)]);
    for (let i = 0; i < RECYCLE_AFTER_DOCUMENTS; i++) windows.add(windowOf(parseHtmlDocument('<p>x</p>')));
    expect(windows.size).toBeGreaterThan(1);
    first.getElementById('p')!.setAttribute('title', 'still usable');
    expect(first.body.innerHTML).toBe('<p id="p" title="still usable">kept</p>');
    expect(windowOf(document_not_parsed_here())).toBeUndefined();
  });

  it('counts HTML parsed by other libraries in its windows too', () => {
    const big = 'x'.repeat(600_000);
    const a = windowFor(big);
    const b = windowFor(big);
    const c = windowFor(big);
    expect(a === b && b === c).toBe(false);
  });
});

function document_not_parsed_here(): Document {
  return new (windowFor('').DOMParser)().parseFromString('<p></p>', 'text/html');
}

describe('childElements', () => {
  it('gives an element\'s child elements in order, text left out, from a jsdom tree and a light one alike', () => {
    const html = '<ul>one<li id="a">A</li> <li id="b">B<b>b</b></li><!-- c --><li id="c">C</li></ul>';
    const list = parseHtmlDocument(html).querySelector('ul')!;
    expect(childElements(list).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    const light = parseLightBody(html).body.children[0]!;
    expect(childElements(light).map((e) => e.getAttribute('id'))).toEqual(['a', 'b', 'c']);
    expect(childElements(parseHtmlDocument('<p>text only</p>').querySelector('p')!)).toEqual([]);
  });

  it("never asks a jsdom element for its children: jsdom would rebuild that list at every later change to them", () => {
    const list = parseHtmlDocument(`<ul>${'<li>x</li>'.repeat(3)}</ul>`).querySelector('ul')!;
    Object.defineProperty(list, 'children', { get: () => { throw new Error('children read'); } });
    expect(childElements(list)).toHaveLength(3);
  });

  it('is a copy: removing children while walking it skips none', () => {
    const list = parseHtmlDocument(`<ul>${'<li>x</li>'.repeat(5)}</ul>`).querySelector('ul')!;
    for (const item of childElements(list)) item.remove();
    expect(list.children.length).toBe(0);
  });
});

describe('baseAddress: what relative links resolve against, as `document.baseURI` says it', () => {
  const cases: Array<[string, string, string | null]> = [
    ['no base', '<p><a href="x">x</a></p>', 'https://news.example/2024/story'],
    ['a base in the head', '<head><base href="https://cdn.example/assets/"></head><body><p>x</p></body>', 'https://news.example/2024/story'],
    ['a relative base', '<head><base href="../archive/"></head><body><p>x</p></body>', 'https://news.example/2024/story'],
    ['a base without href, then one with', '<head><base target="_blank"><base href="/other/"></head><body></body>', 'https://news.example/2024/story'],
    ['a base late in the body', `<body>${'<div><p>deep</p></div>'.repeat(50)}<base href="https://late.example/"></body>`, 'https://news.example/2024/story'],
    ['a base that does not parse', '<head><base href="https://[bad"></head><body></body>', 'https://news.example/2024/story'],
    ['no address at all', '<p>x</p>', null],
  ];
  for (const [name, html, url] of cases) {
    it(`${name}`, () => {
      const document = parseHtmlDocument(html, url);
      expect(baseAddress(document)).toBe(document.baseURI);
    });
  }

  it('names the page itself when it has no base, and the base when it has one', () => {
    expect(baseAddress(parseHtmlDocument('<p>x</p>', 'https://news.example/2024/story'))).toBe('https://news.example/2024/story');
    expect(baseAddress(parseHtmlDocument('<head><base href="../archive/"></head>', 'https://news.example/2024/story'))).toBe('https://news.example/archive/');
  });
});
