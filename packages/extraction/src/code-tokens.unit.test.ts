import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './article.ts';
import { flattenCodeTokens } from './code-tokens.ts';

function flattened(html: string): { html: string; count: number; nodes: number } {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  const count = flattenCodeTokens(root);
  return { html: root.innerHTML, count, nodes: root.getElementsByTagName('*').length };
}

describe('flattenCodeTokens: a highlighted code block is its text', () => {
  it('makes a block of token spans one text node, keeping the <pre> and <code> and what they say', () => {
    const code = '<pre class="highlight"><code class="language-js" data-lang="js"><span class="kd">const</span> <span class="nx">n</span> = <span class="mi">1</span>;\n<span class="c1">// done</span></code></pre>';
    expect(flattened(code)).toEqual({ html: '<pre class="highlight"><code class="language-js" data-lang="js">const n = 1;\n// done</code></pre>', count: 1, nodes: 2 });
    expect(flattened('<pre><span class="k">let</span> x;</pre><p><span class="k">prose</span></p>').html).toBe('<pre>let x;</pre><p><span class="k">prose</span></p>');
  });

  it('leaves a block alone when an element in it may be hidden or other than a token: the steps that know what it is decide', () => {
    for (const html of [
      '<pre><code><span class="linenos">1</span><span class="k">let</span> x;</code></pre>',
      '<pre><code><span aria-hidden="true">$ </span><span class="k">npm</span> i</code></pre>',
      '<pre><code><span class="sr-only">Copy</span><span class="k">npm</span> i</code></pre>',
      '<pre><code><span style="display:none">x</span><span class="k">npm</span> i</code></pre>',
      '<pre><code><a href="/docs/Vec">Vec</a>&lt;<span class="k">u8</span>&gt;</code></pre>',
      '<pre><code><span class="k">a</span><br><b>b</b></code></pre>',
      '<pre><code>plain</code></pre>',
    ]) {
      expect(flattened(html), html).toEqual({ html, count: 0, nodes: expect.any(Number) });
    }
  });

  it('gives a page the same text with every span in a block, at a fraction of the elements', () => {
    const tokens = Array.from({ length: 300 }, (_, i) => `<span class="kd">let</span> <span class="nx">v${i}</span> = <span class="mi">${i}</span>;`).join('\n');
    const page = `<html><head><title>Counting</title></head><body><article><h1>Counting</h1><p>${'How to count in code, one line at a time. '.repeat(12)}</p>`
      + `<pre><code>${tokens}</code></pre><p>${'That is all there is to it, line by line. '.repeat(8)}</p></article></body></html>`;
    const article = extractArticle(page, { url: 'https://example.com/guides/counting' });
    const lines = Array.from({ length: 300 }, (_, i) => `let v${i} = ${i};`).join('\n');
    expect(article.contentHtml).toContain(`<pre><code>${lines}</code></pre>`);
    expect(article.text).toContain(lines);
  });
});
