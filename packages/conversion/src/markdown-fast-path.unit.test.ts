import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { renderedMarkdownBody, sanitizeHtml } from '@folio/article-html';
import { htmlToText, nodeToText } from '@folio/extraction';
import { markdownToHtml } from './markdown.ts';

/**
 * Markdown without raw HTML skips DOMPurify (`renderedMarkdownBody`). That is only sound if it changes nothing: for
 * any Markdown, when the fast path accepts marked's markup, its markup and text must be exactly what DOMPurify's
 * path gives. Generated Markdown mixes every construct marked writes with hostile addresses, entities, raw HTML and
 * the strings DOMPurify refuses in attributes.
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

describe('rendered Markdown without the sanitiser', () => {
  it('gives exactly the markup and text of the DOMPurify path whenever it is taken', () => {
    let taken = 0;
    fc.assert(
      fc.property(markdown, (md) => {
        const html = markdownToHtml(md);
        const fast = renderedMarkdownBody(html);
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
    expect(renderedMarkdownBody(markdownToHtml('# Title\n\nSome *text* with [a link](https://example.com).\n\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |'))).not.toBeNull();
    for (const md of ['<b>raw</b>', 'x <!-- c --> y', '<img src=x onerror=alert(1)>', '[t](https://e.com "a --> b")']) {
      expect(renderedMarkdownBody(markdownToHtml(md)), md).toBeNull();
    }
  });

  it('judges addresses as the sanitiser does: scripts go, the text stays', () => {
    const fast = renderedMarkdownBody(markdownToHtml('[click](javascript:alert(1)) ![x](vbscript:y) [ok](https://e.com/)'))!;
    expect(fast.html()).toBe('<p><a>click</a> <img alt="x"> <a href="https://e.com/">ok</a></p>\n');
  });
});
