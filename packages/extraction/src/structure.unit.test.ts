import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './index.ts';

/**
 * The structure of the main content survives extraction, not only its words: code blocks stay `<pre>`, tables stay
 * `<table>`, lists stay `<li>`. Checked on a handful of WCXB dev pages (../shared/bench-data/wcxb) whose reviewed
 * Markdown ground truth has such structure: each fenced code block's first line must be inside a `<pre>` of
 * `contentHtml`, each table row's first cell inside a `<table>`, each list item inside an `<li>`.
 */
const WCXB = process.env.FOLIO_WCXB_BENCH_DATA ?? '/work/shared/bench-data/wcxb';

const norm = (text: string) => text.replace(/[*_`\\]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

interface Expected {
  code: string[];
  cells: string[];
  items: string[];
}

function expected(markdown: string): Expected {
  const code = [...markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)]
    .map((m) => m[1]!.split('\n').map((line) => line.trim()).find((line) => line.length >= 8))
    .filter((line): line is string => Boolean(line));
  const cells = markdown.split('\n')
    .filter((line) => /^\|.*\|\s*$/.test(line) && !/^\|[\s:|-]+\|$/.test(line))
    .map((row) => row.split('|').map((cell) => cell.trim()).find((cell) => cell.length > 3))
    .filter((cell): cell is string => Boolean(cell));
  const items = markdown.split('\n')
    .filter((line) => /^\s*[-*] \S/.test(line))
    .map((line) => line.replace(/^\s*[-*] /, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'))
    .filter((item) => item.length > 5);
  return { code, cells, items };
}

function load(id: string): { html: string; url: string | null; markdown: string } {
  const truth = JSON.parse(readFileSync(join(WCXB, 'dev', 'ground-truth', `${id}.json`), 'utf8')) as {
    url: string;
    ground_truth: { main_content_markdown: string };
  };
  const html = gunzipSync(readFileSync(join(WCXB, 'dev', 'html', `${id}.html.gz`))).toString('utf8');
  return { html, url: truth.url || null, markdown: truth.ground_truth.main_content_markdown };
}

/** Share of `wanted` found inside one of the elements `selector` picks in the content. */
function foundIn(content: DocumentFragment, selector: string, wanted: string[]): number {
  const texts = Array.from(content.querySelectorAll(selector)).map((element) => norm(element.textContent ?? ''));
  const found = wanted.filter((text) => texts.some((t) => t.includes(norm(text))));
  return found.length / wanted.length;
}

// Pages chosen for their structure (documentation with code blocks and tables, articles with tables and lists);
// each kind of structure is asserted where the page has it.
const PAGES: { id: string; kinds: (keyof Expected)[] }[] = [
  { id: '0498', kinds: ['code'] }, // a book's code samples in Tailwind-styled blocks (`print:` utility classes)
  { id: '0662', kinds: ['code', 'cells'] },
  { id: '0684', kinds: ['code', 'cells'] },
  { id: '0683', kinds: ['code', 'cells'] },
  { id: '2859', kinds: ['code'] },
  { id: '4403', kinds: ['code'] },
  { id: '0002', kinds: ['cells', 'items'] },
  { id: '0056', kinds: ['cells', 'items'] },
];

const SELECTOR: Record<keyof Expected, string> = { code: 'pre', cells: 'table', items: 'li' };

describe('extractArticle keeps a code block styled with conditional utility classes', () => {
  it('does not take `print:` for a print-only copy', () => {
    const paragraphs = Array.from({ length: 5 }, (_, i) => `<p>Step ${i + 1} of the guide explains, in a few plain sentences, how the
      function composes with the others, why it stays pure, and what a reader should try next in the console.</p>`).join('');
    const html = `<html><head><title>Composing functions</title></head><body><article><h1>Composing functions</h1>${paragraphs}
      <div class="group/codeblock grid print:break-inside-avoid md:max-w-full"><pre class="overflow-auto p-2"><code>const compose = (f, g) => (x) => f(g(x));</code></pre></div>
      ${paragraphs}</article></body></html>`;
    const content = JSDOM.fragment(extractArticle(html, { url: 'https://docs.example.net/guide/compose' }).contentHtml);
    expect(content.querySelector('pre code')?.textContent).toBe('const compose = (f, g) => (x) => f(g(x));');
  });
});

describe('extractArticle keeps the structure of the main content (WCXB dev pages)', () => {
  for (const { id, kinds } of PAGES) {
    it(`page ${id}: ${kinds.map((k) => SELECTOR[k]).join(', ')}`, () => {
      const { html, url, markdown } = load(id);
      const want = expected(markdown);
      const content = JSDOM.fragment(extractArticle(html, { url }).contentHtml);
      for (const kind of kinds) {
        expect(want[kind].length, `${id} has ${kind} in its ground truth`).toBeGreaterThan(0);
        expect(foundIn(content, SELECTOR[kind], want[kind]), `${id}: share of ${kind} inside <${SELECTOR[kind]}>`)
          .toBeGreaterThanOrEqual(0.9);
      }
      // A code block stays a code block in every output: `<pre>` keeps its `<code>` when the page had one.
      if (kinds.includes('code') && /<pre\b[^>]*>\s*<code\b/i.test(html)) expect(content.querySelector('pre code')).not.toBeNull();
    });
  }
});

describe('extractArticle keeps a code block’s lines apart where the page’s markup, not newlines, made them lines', () => {
  const lines = (contentHtml: string) =>
    new Set(Array.from(JSDOM.fragment(contentHtml).querySelectorAll('pre')).flatMap((pre) => (pre.textContent ?? '').split('\n').map((l) => l.trim())));

  it('page 2873: CodeMirror lines, a <div> each, are each a line of the <pre>', () => {
    // 5 of its 53 code lines were lines of their own before: the others ran together with their neighbours.
    const { html, url, markdown } = load('2873');
    const wanted = [...markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)]
      .flatMap((m) => m[1]!.split('\n').map((line) => line.trim()).filter((line) => line.length >= 6));
    expect(wanted.length).toBeGreaterThan(40);
    const got = lines(extractArticle(html, { url }).contentHtml);
    expect(wanted.filter((line) => !got.has(line))).toEqual([]);
  });

  it('lines a page’s stylesheet set apart (Gatsby’s highlighted lines, inline spans) are lines of the text', () => {
    const paragraphs = Array.from({ length: 4 }, () => '<p>The hook returns the current state and a function that updates it, and React keeps the state between renders of the component.</p>').join('');
    const html = `<html><head><title>Hooks</title></head><body><article><h1>Hooks</h1>${paragraphs}<div class="gatsby-highlight"><pre class="language-js"><code>`
      + 'function Example() {\n<span class="gatsby-highlight-code-line">  <span class="token comment">// Declare a state variable</span></span>'
      + '<span class="gatsby-highlight-code-line">  <span class="token keyword">const</span> [count, setCount] = useState(0);</span>\n  return count;\n}'
      + `</code></pre></div>${paragraphs}</article></body></html>`;
    const article = extractArticle(html, { url: 'https://docs.example.org/hooks' });
    expect(article.text).toContain('function Example() {\n  // Declare a state variable\n  const [count, setCount] = useState(0);\n  return count;\n}');
    expect(lines(article.contentHtml)).toContain('const [count, setCount] = useState(0);');
  });
});
