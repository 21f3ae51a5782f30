import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { plainMarkupBody, sanitizeHtml } from '@folio/article-html';
import { parseLightBodyIf, windowFor } from '@folio/dom';
import { htmlToText, nodeToText } from '@folio/extraction';
import { markdownToHtml } from './markdown.ts';

/**
 * Plain article markup skips DOMPurify (`plainMarkupBody`). That is only sound if it changes nothing: for any
 * Markdown and any HTML, when the fast path accepts the markup, its markup and text must be exactly what DOMPurify's
 * path gives. Generated input mixes every construct marked writes, and plain article elements with their attributes,
 * with hostile addresses, entities, raw HTML, scripts, handlers, ids, styles and the values DOMPurify refuses.
 */
const inline = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9 ,.;!?é✓]{1,16}$/),
  fc.constantFrom(
    '*em*', '**strong**', '~~gone~~', '`code <b>`', '<', '>', '&', '&amp;', '&lt;script&gt;', '"quoted"', "it's",
    '[link](https://example.com/a?b=1&c=2 "T")', '[rel](../up/page.html)', '[frag](#note-1)', '[mail](mailto:a@b.c)',
    '[js](javascript:alert(1))', '[js2](jav&#x09;ascript:alert(1))', '[vb](vbscript:x)', '[data](data:text/html,<script>x</script>)',
    '![img](https://example.com/i.png "Title")', '![alt text](data:image/png;base64,iVBORw0KGgo=)', '![bad](javascript:x)',
    '![rel](img/x.png)', '<https://example.com/auto>', 'www.example.com', 'a@b.example',
    '<b>raw</b>', '<img src=x onerror=alert(1)>', '<!-- comment -->', '<a href="javascript:x">raw link</a>', '<span title="--&gt;">t</span>',
    '[t](https://e.com "a --> b")', '![t](https://e.com/x.png "</style>")', '\\*escaped\\*',
  ),
);
const line = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
const block = fc.oneof(
  line,
  line.map((l) => `# ${l}`),
  line.map((l) => `### ${l}`),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join('\n')),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l, i) => `${i + 3}. ${l}`).join('\n')),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l, i) => `- [${i % 2 ? 'x' : ' '}] ${l}`).join('\n')),
  line.map((l) => `> ${l}`),
  line.map((l) => `\`\`\`js\n${l}\n</code></pre><script>x</script>\n\`\`\``),
  fc.tuple(line, line).map(([a, b]) => `| ${a} | b |\n|:---|---:|\n| ${b} | 2 |`),
  fc.constant('---'),
  fc.constant('<div onclick="x">raw block</div>'),
  fc.constant('<details><summary>s</summary>d</details>'),
);
const markdown = fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => blocks.join('\n\n'));

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

const attribute = fc.oneof(
  fc.constantFrom(
    'class="lead"', 'title="A: note"', 'lang="fr"', 'dir="rtl"', 'href="https://example.com/x?a=1&amp;b=2"', 'href="/rel/page"',
    'href="#top"', 'href="mailto:a@b.c"', 'href="javascript:alert(1)"', 'href=" https://padded.example/ "', 'href="jav&#x09;ascript:x"',
    'href="data:text/html,x"', 'src="https://example.com/i.png"', 'src="data:image/png;base64,iVBORw0KGgo="', 'src="img.png"',
    'src="javascript:x"', 'alt="An image"', 'alt=" padded "', 'width="640"', 'height="480"', 'width="100%"', 'start="3"',
    'reversed', 'value="7"', 'colspan="2"', 'rowspan="x:y"', 'align="left"', 'align="center:"', 'scope="col"', 'cite="https://e.com/src"',
    'cite="javascript:x"', 'datetime="2026-11-23"', 'hreflang="en"', 'span="2"', 'type="checkbox"', 'checked', 'disabled',
    'id="cookie"', 'id="section-2"', 'name="x"', 'style="color:red"', 'onclick="alert(1)"', 'data-x="1"', 'title="a /> b"',
    'title="x --> y"', 'class="a </style> b"', 'srcset="a.png 1x"', 'loading="lazy"', 'hidden', 'tabindex="1"', 'xmlns="x"',
  ),
);
const tag = fc.constantFrom(
  'p', 'div', 'span', 'section', 'h2', 'blockquote', 'pre', 'code', 'em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark',
  'small', 'sub', 'sup', 'abbr', 'cite', 'q', 'time', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'a', 'img',
  'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td', 'col', 'input', 'br', 'hr',
  'script', 'style', 'svg', 'math', 'iframe', 'form', 'button', 'details', 'summary', 'template', 'noscript', 'xmp', 'picture', 'source', 'font',
);
const element = fc.tuple(tag, fc.array(attribute, { maxLength: 3 })).map(([t, attrs]) => `<${t}${attrs.map((a) => ` ${a}`).join('')}>`);
const htmlPiece = fc.oneof(
  element,
  element,
  tag.map((t) => `</${t}>`),
  fc.stringMatching(/^[a-zA-Z0-9 ,.é✓]{1,12}$/),
  fc.constantFrom('&amp;', '&lt;b&gt;', '&nbsp;', '<!-- c -->', '\n', '"', "'", '<', '>'),
);
const html = fc.array(htmlPiece, { maxLength: 40 }).map((pieces) => pieces.join(''));

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
        expect(nodeToText(fast.body)).toBe(htmlToText(slow));
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(200);
  });

  it('is taken for plain article HTML and refused for anything DOMPurify would change beyond addresses', () => {
    const article = '<h2 class="x">Title</h2><p lang="en">A <a href="https://e.com/a">link</a> and <img src="/i.png" alt="i" width="10">.</p><table><tr><th scope="col">a</th></tr></table>';
    expect(plainMarkupBody(article, 'https://e.com/post')?.html()).toBe(sanitizeHtml(article, { baseUrl: 'https://e.com/post' }));
    for (const markup of ['<p onclick="x">a</p>', '<p id="x">a</p>', '<p style="color:red">a</p>', '<svg></svg>', '<p>a<!-- c --></p>', '<p title=" x ">a</p>']) {
      expect(plainMarkupBody(markup), markup).toBeNull();
    }
  });
});
