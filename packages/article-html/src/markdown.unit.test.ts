import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, htmlToMarkdownByTurndown } from './markdown.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/markdown/${name}`, import.meta.url), 'utf8');

/** Renders Markdown back to HTML with a GFM renderer, to show the output means what it should. */
const marked = new Marked({ gfm: true, async: false });
const rendered = (markdown: string) => new JSDOM(`<body>${marked.parse(markdown) as string}`).window.document;

describe('htmlToMarkdown: golden outputs', () => {
  it.each(['tables', 'task-lists', 'code', 'nested-lists', 'links', 'messy'])('%s, links off', (name) => {
    expect(htmlToMarkdown(fixture(`${name}.html`))).toBe(fixture(`${name}.md`));
  });

  it.each(['tables', 'links'])('%s, links on', (name) => {
    expect(htmlToMarkdown(fixture(`${name}.html`), { includeLinks: true })).toBe(fixture(`${name}.links.md`));
  });

  it.each(['task-lists', 'code', 'nested-lists', 'messy'])('%s has no addresses, so links on changes nothing', (name) => {
    expect(htmlToMarkdown(fixture(`${name}.html`), { includeLinks: true })).toBe(fixture(`${name}.md`));
  });

  it.each(['tables.md', 'tables.links.md', 'task-lists.md', 'code.md', 'nested-lists.md', 'links.md', 'links.links.md', 'messy.md'])(
    '%s is clean: no raw HTML, no runs of blank lines, no trailing spaces, one final newline',
    (name) => {
      const markdown = fixture(name);
      const outsideCode = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, 'CODE').replace(/(`+)[^`\n]*?\1/g, 'code');
      expect(outsideCode).not.toMatch(/(^|[^\\])<[a-z/!?]/im);
      expect(outsideCode).not.toMatch(/\n{3,}/);
      expect(outsideCode).not.toMatch(/[ \t]+\n/);
      expect(markdown).toMatch(/[^\n]\n$/);
    },
  );
});

describe('htmlToMarkdown: the output is the GFM it claims to be', () => {
  it('tables render as tables with their alignment, every row and no HTML kept from the cells', () => {
    const doc = rendered(fixture('tables.md'));
    const tables = doc.querySelectorAll('table');
    expect(tables).toHaveLength(3);
    const prices = tables[0]!;
    expect(Array.from(prices.querySelectorAll('th')).map((th) => [th.textContent, th.getAttribute('align')])).toEqual([
      ['Item', 'left'],
      ['Size', 'center'],
      ['Price', 'right'],
    ]);
    expect(Array.from(prices.querySelectorAll('tbody tr')).map((tr) => Array.from((tr as HTMLTableRowElement).cells).map((td) => td.textContent))).toEqual([
      ['Tea | green', 'a|b', '1.50'],
      ['Coffee', 'Large cup', '2.00'],
      ['• one • two', 'line break', 'x = 1 y = 2'],
    ]);
    expect(tables[2]!.querySelector('th')?.textContent).toBe('Inner');
  });

  it('task lists render as checkboxes in the right state, nested ones inside their item', () => {
    const doc = rendered(fixture('task-lists.md'));
    const boxes = Array.from(doc.querySelectorAll('input[type=checkbox]')) as HTMLInputElement[];
    expect(boxes.map((box) => box.checked)).toEqual([true, false, true, false]);
    expect(doc.querySelector('li li input')).not.toBeNull();
  });

  it('code blocks keep their language and every character', () => {
    const doc = rendered(fixture('code.md'));
    const blocks = Array.from(doc.querySelectorAll('pre > code'));
    expect(blocks.map((code) => code.className)).toEqual(['language-typescript', '', '', 'language-python']);
    expect(blocks[0]!.textContent).toBe(
      'function add(a: number, b: number): number {\n  return a + b; // *not* markdown\n}\n\n\nexport { add };\n',
    );
    expect(blocks[1]!.textContent).toBe('plain block with ``` fences inside\n```\nstill code\n');
    expect(blocks[2]!.textContent).toBe('preformatted text\n    keeps   its spacing\n');
    expect(Array.from(doc.querySelectorAll('p > code')).map((code) => code.textContent)).toEqual([
      'render()',
      'a `tick` b',
      '`edge`',
    ]);
  });

  it('nested lists keep their nesting and numbering', () => {
    const doc = rendered(fixture('nested-lists.md'));
    expect(doc.querySelector('ul > li > ol > li > ul > li')?.textContent).toBe('Granny Smith');
    const ordered = doc.querySelectorAll('body > ol');
    expect(ordered[0]?.getAttribute('start')).toBe('9');
    expect(doc.querySelector('body > ol > li:nth-child(2) > ul > li')?.textContent).toBe('deep');
  });

  it('drops a tag left open at the end of the markup, as the HTML standard does, on both paths', () => {
    // fast-check found it (markdown-tree.unit.test.ts): turndown's parse had `</body></html>` after the markup, and
    // the open tag took them for attributes and printed an empty heading inside the code span.
    for (const markup of ['<p>Kept <code>x</code>.</p><h1 A', '<code>.<h1 A']) {
      const expected = markup.startsWith('<p>') ? 'Kept `x`.\n' : '`.`\n';
      expect(htmlToMarkdownByTurndown(markup)).toBe(expected);
      expect(htmlToMarkdown(markup)).toBe(expected);
    }
  });

  it('escaped text stays text', () => {
    const doc = rendered(fixture('messy.md'));
    const text = doc.body.textContent ?? '';
    expect(text).toContain('write <div> and </p>, not <!-- -->; 1 < 2 && 3 > 2.');
    expect(text).toContain('* not a list, _not emphasis_, # not a heading, [not a link](x), 1. not a list');
    expect(doc.querySelector('div, em, a')).toBeNull();
  });
});

describe('htmlToMarkdown: links', () => {
  const html = '<p>Read <a href="https://example.com/a">the article</a> <img src="https://example.com/i.png" alt="pic"> now.</p>';

  it('keeps link words and drops addresses and images by default', () => {
    expect(htmlToMarkdown(html)).toBe('Read the article now.\n');
    expect(htmlToMarkdown(html, { includeLinks: false })).toBe('Read the article now.\n');
  });

  it('keeps link and image addresses when asked', () => {
    expect(htmlToMarkdown(html, { includeLinks: true })).toBe(
      'Read [the article](https://example.com/a) ![pic](https://example.com/i.png) now.\n',
    );
  });

  it('never writes an unsafe address, even from unsanitised input', () => {
    expect(htmlToMarkdown('<a href="javascript:alert(1)">x</a> <img src="vbscript:x" alt="y">', { includeLinks: true })).toBe('x\n');
  });
});

describe('htmlToMarkdown: edges', () => {
  it('gives nothing for nothing', () => {
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown('<p> </p><div><br></div><script>x</script>')).toBe('');
  });

  it('keeps text from every script', () => {
    expect(htmlToMarkdown('<h2>Заголовок</h2><p>Ελληνικά 中文 العربية עברית</p>')).toBe('## Заголовок\n\nΕλληνικά 中文 العربية עברית\n');
  });

  it('keeps a hard line break', () => {
    expect(htmlToMarkdown('<p>one<br>two</p>')).toBe('one  \ntwo\n');
  });
});

describe('list items', () => {
  it('trims the blank lines around an item, reading a long run of them once', () => {
    // A code block of 200,000 blank lines in an item: the trailing trim, tried from each newline, read the rest of the
    // run again from each (minutes).
    const markdown = htmlToMarkdown(`<ul><li><p>first</p><pre>a${'\n'.repeat(200_000)}b</pre></li><li>\n\nsecond\n\n</li></ul>`);
    expect(markdown).toContain(`a${'\n  '.repeat(200_000)}b`);
    expect(markdown).toMatch(/\n- second\n?$/);
  });

  it('keeps every blank line of a code block that starts an item', () => {
    // The item's first line opens the fence ("- ```"): the tidying once took it for text and closed up its blank lines.
    expect(htmlToMarkdown('<ul><li><pre>a\n\n\n\nb</pre></li><li>after\n\n\n</li></ul>')).toBe('- ```\n  a\n  \n  \n  \n  b\n  ```\n\n- after\n');
    expect(htmlToMarkdown('<ol><li><pre><code>x\n\n\ny</code></pre></li></ol>')).toBe('1. ```\n   x\n   \n   \n   y\n   ```\n');
  });
});
