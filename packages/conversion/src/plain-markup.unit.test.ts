import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { plainMarkupBody, sanitizeHtml } from '@folio/article-html';
import { parseLightBodyIf, windowFor } from '@folio/dom';
import { htmlToText, nodeToText } from '@folio/extraction';
import { markdownToHtml } from './markdown.ts';
import { html, markdown } from './test-support/generators.ts';

/**
 * Plain article markup skips DOMPurify (`plainMarkupBody`). That is only sound if it changes nothing: for any
 * Markdown and any HTML, when the fast path accepts the markup, its markup and text must be exactly what DOMPurify's
 * path gives, over generated input (test-support/generators.ts).
 */
describe('Markdown without the sanitiser', () => {
  it('gives exactly the markup and text of the DOMPurify path whenever it is taken', () => {
    let taken = 0;
    fc.assert(
      fc.property(markdown, (md) => {
        const html = markdownToHtml(md);
        const fast = plainMarkupBody(html);
        if (!fast) return;
        taken++;
        const slow = sanitizeHtml(html, { baseUrl: null });
        expect(fast.html()).toBe(slow);
        expect(nodeToText(fast.body)).toBe(htmlToText(slow));
      }),
      { numRuns: 1500 },
    );
    // The generator mixes raw HTML into many documents; enough must still take the fast path to prove anything.
    expect(taken).toBeGreaterThan(100);
  });

  it('is taken for Markdown without raw HTML, and refused for raw HTML, comments and hostile attribute values', () => {
    expect(plainMarkupBody(markdownToHtml('# Title\n\nSome *text* with [a link](https://example.com).\n\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |'))).not.toBeNull();
    for (const md of ['<b onclick="x">raw</b>', 'x <!-- c --> y', '<img src=x onerror=alert(1)>', '[t](https://e.com "a --> b")']) {
      expect(plainMarkupBody(markdownToHtml(md)), md).toBeNull();
    }
  });

  it('judges addresses as the sanitiser does: scripts go, the text stays', () => {
    const fast = plainMarkupBody(markdownToHtml('[click](javascript:alert(1)) ![x](vbscript:y) [ok](https://e.com/)'))!;
    expect(fast.html()).toBe('<p><a>click</a> <img alt="x"> <a href="https://e.com/">ok</a></p>\n');
  });
});

describe('supplied HTML without the sanitiser', () => {
  it('gives exactly the markup and text of the DOMPurify path whenever it is taken', () => {
    let taken = 0;
    fc.assert(
      fc.property(html, fc.constantFrom(null, 'https://example.com/dir/page.html'), (markup, baseUrl) => {
        // jsdom puts text foster-parented out of a table after the table, not before it as the HTML standard (and
        // parse5 on its own, and Chromium) does; where the two parsers build different trees there is nothing to compare.
        const asJsdom = new (windowFor(markup).DOMParser)().parseFromString(markup, 'text/html').body.innerHTML;
        fc.pre(asJsdom === parseLightBodyIf(markup, () => true, { asDomPurify: true })!.html().replace(/^[\r\n\t ]+/, ''));
        const fast = plainMarkupBody(markup, baseUrl);
        if (!fast) return;
        taken++;
        const slow = sanitizeHtml(markup, { baseUrl });
        expect(fast.html()).toBe(slow);
        // The DOMPurify path lays out the text of its html read again; the parser drops a newline right after <pre>,
        // so a <pre> whose text starts with one (`<pre><td>\nA`: the stray tag keeps the newline) reads back as
        // another tree. Where the html does not read back as the same text there are two trees and nothing to compare.
        fc.pre(parseLightBodyIf(slow, () => true)!.body.textContent === fast.body.textContent);
        expect(nodeToText(fast.body)).toBe(htmlToText(slow));
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(200);
  });

  it('is taken for plain article HTML and refused for anything DOMPurify would change beyond addresses', () => {
    const article = '<h2 class="x">Title</h2><p lang="en">A <a href="https://e.com/a">link</a> and <img src="/i.png" alt="i" width="10">.</p><table><tr><th scope="col">a</th></tr></table>';
    expect(plainMarkupBody(article, 'https://e.com/post')?.html()).toBe(sanitizeHtml(article, { baseUrl: 'https://e.com/post' }));
    // An id is kept as DOMPurify keeps it, unless it would shadow a property of the document or a form.
    const anchored = '<div id="readability-page-1"><h2 id="how-it-works">How</h2><p id="intro">a</p></div>';
    expect(plainMarkupBody(anchored)?.html()).toBe(sanitizeHtml(anchored));
    for (const markup of ['<p onclick="x">a</p>', '<p id="cookie">a</p>', '<p id="submit">a</p>', '<p style="color:red">a</p>', '<svg></svg>', '<p>a<!-- c --></p>', '<p title=" x ">a</p>']) {
      expect(plainMarkupBody(markup), markup).toBeNull();
    }
  });
});
