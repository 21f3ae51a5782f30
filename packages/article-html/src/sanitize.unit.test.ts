import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';
import { plainMarkupBody } from './plain-markup.ts';
import { unsafeParts } from './test-support/inert.ts';
import { PAYLOADS } from './test-support/xss-payloads.ts';

/*
 * Each payload must come out inert (checked by an independent parse), and sanitising again must change nothing: a
 * mutation-XSS payload shows itself exactly by not surviving a serialize/parse round trip.
 */
describe('sanitizeHtml: known XSS payloads', () => {
  it.each(PAYLOADS)('the inertness check catches the raw payload: %s', (_name, html) => {
    expect(unsafeParts(html)).not.toEqual([]);
  });

  it.each(PAYLOADS)('removes it: %s', (_name, html) => {
    const clean = sanitizeHtml(html, { baseUrl: 'https://site.example/articles/one.html' });
    expect(unsafeParts(clean)).toEqual([]);
    expect(clean).not.toMatch(/<(script|style|iframe|object|embed|form|meta|base|link)\b/i);
    expect(clean).not.toMatch(/\son[a-z]+\s*=/i);
    expect(sanitizeHtml(clean, { baseUrl: 'https://site.example/articles/one.html' })).toBe(clean);
  });

  it.each(PAYLOADS)('takes the path without DOMPurify only where that gives the same inert result: %s', (_name, html) => {
    const base = 'https://site.example/articles/one.html';
    const plain = plainMarkupBody(html, base);
    if (plain) {
      expect(plain.html()).toBe(sanitizeHtml(html, { baseUrl: base }));
      expect(unsafeParts(plain.html())).toEqual([]);
    }
  });

  it('keeps the harmless part of what it cleans', () => {
    expect(sanitizeHtml('<p>ok</p><script>alert(1)</script>')).toBe('<p>ok</p>');
    expect(sanitizeHtml('<a href="javascript:alert(1)">words</a>')).toBe('<a>words</a>');
    expect(sanitizeHtml('<img src=x onerror=alert(1) alt="a">')).toBe('<img src="x" alt="a">');
    expect(sanitizeHtml('<form action="/x"><p>inside</p><input type=submit></form>')).toBe('<p>inside</p>');
    expect(sanitizeHtml('<div style="color:red">styled</div>')).toBe('<div>styled</div>');
    expect(sanitizeHtml('<button formaction="/x">Press</button>')).toBe('Press');
  });

  it('keeps a task-list checkbox, disabled, and nothing that could submit it', () => {
    expect(sanitizeHtml('<ul><li><input type="checkbox" checked name="x" value="y" form="f"> done</li></ul>')).toBe(
      '<ul><li><input type="checkbox" checked="" disabled=""> done</li></ul>',
    );
  });

  it('opens details so their content prints', () => {
    expect(sanitizeHtml('<details><summary>More</summary><p>body</p></details>')).toBe(
      '<details open=""><summary>More</summary><p>body</p></details>',
    );
  });

  it('drops attributes that hide text or defer images in print', () => {
    expect(sanitizeHtml('<p hidden>a</p><div popover>b</div><img src="https://i.example/a.png" loading="lazy">')).toBe(
      '<p>a</p><div>b</div><img src="https://i.example/a.png">',
    );
  });
});

describe('sanitizeHtml: article structure', () => {
  it('passes a clean article through unchanged', () => {
    const article = [
      '<h1>Heading one</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
      '<p>Text with <strong>bold</strong>, <em>italic</em>, <code>code</code>, <del>gone</del>, <sup>1</sup>, <sub>2</sub>, ',
      '<abbr title="HyperText Markup Language">HTML</abbr>, <time datetime="2024-05-01">May 1</time> and ',
      '<a href="https://example.com/page" title="A page">a link</a>.<br>After a break.</p>',
      '<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul><ol start="3" reversed=""><li>three</li></ol>',
      '<dl><dt>Term</dt><dd>Definition</dd></dl>',
      '<table><caption>Caption</caption><thead><tr><th scope="col">A</th><th align="right">B</th></tr></thead>',
      '<tbody><tr><td colspan="2">wide</td></tr></tbody></table>',
      '<figure><img src="https://example.com/a.png" alt="Alt text" title="Image title" width="640" height="480">',
      '<figcaption>Figure caption</figcaption></figure>',
      '<picture><source srcset="https://example.com/a.webp 1x, https://example.com/a2.webp 2x" type="image/webp">',
      '<img src="https://example.com/a.jpg" alt="p"></picture>',
      '<pre><code class="language-js">const a = 1 &lt; 2;\n</code></pre>',
      '<blockquote cite="https://example.com/source"><p>Quoted</p></blockquote><hr>',
      '<p dir="rtl" lang="ar">مرحبا</p>',
      '<svg viewBox="0 0 10 10" width="10" height="10"><circle cx="5" cy="5" r="4" fill="red"></circle></svg>',
      '<math><msup><mi>x</mi><mn>2</mn></msup></math>',
    ].join('');
    expect(sanitizeHtml(article)).toBe(article);
  });

  it('keeps MathML with its alttext, without printing the TeX annotation next to it', () => {
    const wikipedia =
      '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block" alttext="f: x \\mapsto x^{2}"><semantics><mrow>' +
      '<msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">f: x \\mapsto x^{2}</annotation>' +
      '</semantics></math>';
    expect(sanitizeHtml(wikipedia)).toBe(
      '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block" alttext="f: x \\mapsto x^{2}"><mrow>' +
        '<msup><mi>x</mi><mn>2</mn></msup></mrow></math>',
    );
  });

  it('keeps a large embedded image byte for byte, and leaves a token-like string alone', () => {
    const image = `data:image/png;base64,${Buffer.alloc(300_000, 1).toString('base64')}`;
    const html = `<p>folio-stash-000000000000-0</p><img src="${image}" alt="big"><p><code>${image}</code></p>`;
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('judges a large embedded non-image exactly as a small one', () => {
    const page = `data:text/html;base64,${Buffer.alloc(3_000, 1).toString('base64')}`;
    const image = `data:image/png;base64,${Buffer.alloc(3_000, 1).toString('base64')}`;
    expect(sanitizeHtml(`<img src="${page}"><a href="${image}">x</a>`)).toBe('<img><a>x</a>');
  });
});

describe('sanitizeHtml: addresses', () => {
  const base = 'https://site.example/articles/2024/post.html?ref=1';

  it('makes relative addresses absolute against the base URL', () => {
    expect(
      sanitizeHtml(
        '<a href="../about">a</a><a href="/root">r</a><a href="//cdn.example/x">p</a><a href="?page=2">q</a>' +
          '<img src="img/a.png" srcset="img/a-2x.png 2x, /img/a-3x.png 3x">' +
          '<video poster="poster.jpg"><source src="movie.mp4" type="video/mp4"></video>' +
          '<blockquote cite="notes.html">q</blockquote><table background="bg.png"><tbody><tr><td>x</td></tr></tbody></table>' +
          '<svg><image href="chart.png"></image><a href="svg-link.html"><text>t</text></a></svg>',
        { baseUrl: base },
      ),
    ).toBe(
      '<a href="https://site.example/articles/about">a</a><a href="https://site.example/root">r</a>' +
        '<a href="https://cdn.example/x">p</a><a href="https://site.example/articles/2024/post.html?page=2">q</a>' +
        '<img src="https://site.example/articles/2024/img/a.png" srcset="https://site.example/articles/2024/img/a-2x.png 2x, https://site.example/img/a-3x.png 3x">' +
        '<video poster="https://site.example/articles/2024/poster.jpg"><source src="https://site.example/articles/2024/movie.mp4" type="video/mp4"></video>' +
        '<blockquote cite="https://site.example/articles/2024/notes.html">q</blockquote>' +
        '<table background="https://site.example/articles/2024/bg.png"><tbody><tr><td>x</td></tr></tbody></table>' +
        '<svg><image href="https://site.example/articles/2024/chart.png"></image><a href="https://site.example/articles/2024/svg-link.html"><text>t</text></a></svg>',
    );
  });

  it('leaves in-article fragment links, mailto and tel alone', () => {
    expect(sanitizeHtml('<a href="#note-1">1</a><a href="mailto:a@b.example">m</a><a href="tel:+123">t</a>', { baseUrl: base })).toBe(
      '<a href="#note-1">1</a><a href="mailto:a@b.example">m</a><a href="tel:+123">t</a>',
    );
  });

  it('keeps relative addresses as written without a usable base', () => {
    const html = '<a href="../about">a</a><img src="img/a.png">';
    expect(sanitizeHtml(html)).toBe(html);
    expect(sanitizeHtml(html, { baseUrl: null })).toBe(html);
    expect(sanitizeHtml(html, { baseUrl: 'javascript:alert(1)' })).toBe(html);
    expect(sanitizeHtml('<a href="#x">a</a>', { baseUrl: 'javascript:alert(1)//' })).toBe('<a href="#x">a</a>');
    expect(sanitizeHtml(html, { baseUrl: 'not a url' })).toBe(html);
  });

  it('keeps only the safe candidates of a srcset, and drops it when none is left', () => {
    expect(sanitizeHtml('<img srcset="javascript:alert(1) 1x, data:image/png;base64,AAAA 2x, b.png 3x">', { baseUrl: base })).toBe(
      '<img srcset="https://site.example/articles/2024/b.png 3x">',
    );
    expect(sanitizeHtml('<img src="a.png" srcset="javascript:alert(1) 1x">')).toBe('<img src="a.png">');
  });

  it('allows data: only for images in img src', () => {
    expect(sanitizeHtml('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">')).toBe(
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
    );
    expect(sanitizeHtml('<video poster="data:text/html,x"></video><audio src="data:audio/mp3;base64,AAAA"></audio>')).toBe(
      '<video></video><audio></audio>',
    );
  });

  it('normalises absolute addresses', () => {
    expect(sanitizeHtml('<a href="HTTPS://Example.COM/a b">x</a>')).toBe('<a href="https://example.com/a%20b">x</a>');
  });
});
