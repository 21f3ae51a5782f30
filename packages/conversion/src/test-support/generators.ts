import fc from 'fast-check';

/**
 * Generators of article input for the property tests that hold a fast path to the slow one it stands in for
 * (sanitising: plain-markup.unit.test.ts; Markdown: markdown-tree.unit.test.ts). Generated input mixes every
 * construct markdown-it writes, and plain article elements with their attributes, with hostile addresses, entities, raw
 * HTML, scripts, handlers, ids, styles and the values DOMPurify refuses.
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
export const markdown = fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => blocks.join('\n\n'));

const attribute = fc.oneof(
  fc.constantFrom(
    'class="lead"', 'title="A: note"', 'lang="fr"', 'dir="rtl"', 'href="https://example.com/x?a=1&amp;b=2"', 'href="/rel/page"',
    'href="#top"', 'href="mailto:a@b.c"', 'href="javascript:alert(1)"', 'href=" https://padded.example/ "', 'href="jav&#x09;ascript:x"',
    'href="data:text/html,x"', 'src="https://example.com/i.png"', 'src="data:image/png;base64,iVBORw0KGgo="', 'src="img.png"',
    'src="javascript:x"', 'alt="An image"', 'alt=" padded "', 'width="640"', 'height="480"', 'width="100%"', 'start="3"',
    'reversed', 'value="7"', 'colspan="2"', 'rowspan="x:y"', 'align="left"', 'align="center:"', 'scope="col"', 'cite="https://e.com/src"',
    'cite="javascript:x"', 'datetime="2026-11-23"', 'hreflang="en"', 'span="2"', 'type="checkbox"', 'checked', 'disabled',
    'id="cookie"', 'id="section-2"', 'id="intro"', 'id="readability-page-1"', 'id="location"', 'id="length"', 'id="elements"',
    'id="submit"', 'id="toString"', 'id="__proto__"', 'id="0"', 'id="a:b"', 'id=""', 'id=" x "', 'id="x y"', 'rel="noopener noreferrer"',
    'rel="javascript:x"', 'decoding="async"', 'role="note"', 'aria-label="Close"', 'aria-hidden="true"', 'aria-label="javascript:x"',
    'aria-x_y="1"', 'aria-="1"', 'name="x"', 'style="color:red"', 'onclick="alert(1)"', 'data-x="1"', 'title="a /> b"',
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
export const html = fc.array(htmlPiece, { maxLength: 40 }).map((pieces) => pieces.join(''));
