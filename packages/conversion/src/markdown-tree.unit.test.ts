import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdownByTurndown, lightToMarkdown, plainMarkupBody, sanitizeContent } from '@folio/article-html';
import { parseLightBody, withinNesting } from '@folio/dom';
import { extractArticle } from '@folio/extraction';
import { sampleArticle } from '../../../bench/pipeline/markdown.ts';
import { markdownToHtml } from './markdown.ts';
import { html, markdown } from './test-support/generators.ts';

/**
 * Markdown is written from a light tree (`lightToMarkdown`) instead of by turndown over domino's DOM: for supplied
 * input from the tree `safeMarkup` parsed (the markup it serialises to), for other markup from a parse5 parse of it
 * (`htmlToMarkdown`). turndown's output is the specification: for any markup the fast path takes, both must give the
 * same string, byte for byte; where the fast path cannot be sure it refuses (null) and turndown writes it.
 */
type Outcome = 'same' | 'refused' | 'not plain' | 'domino throws';

/** Supplied input, the way a conversion takes it: `withinNesting`, `plainMarkupBody`, Markdown of its `html()`. */
function compare(markup: string, baseUrl: string | null, includeLinks: boolean): Outcome {
  const plain = plainMarkupBody(withinNesting(markup), baseUrl);
  if (!plain) return 'not plain';
  const fast = lightToMarkdown(plain.body, { includeLinks });
  if (fast === null) return 'refused';
  expect(fast).toBe(htmlToMarkdownByTurndown(plain.html(), { includeLinks }));
  return 'same';
}

/**
 * Any other markup, as `htmlToMarkdown` takes it: parsed by parse5, Markdown of the markup itself. domino throws on
 * some markup parse5 reads (an attribute named `,`: `<a,>`); there the light path answers where turndown's could not.
 */
function compareSource(markup: string, includeLinks: boolean): Outcome {
  const fast = lightToMarkdown(parseLightBody(markup).body, { includeLinks, markup: 'source' });
  if (fast === null) return 'refused';
  let slow: string;
  try {
    slow = htmlToMarkdownByTurndown(markup, { includeLinks });
  } catch {
    return 'domino throws';
  }
  expect(fast).toBe(slow);
  return 'same';
}

function tally(outcomes: Outcome[]): Record<Outcome, number> {
  const counts = { same: 0, refused: 0, 'not plain': 0, 'domino throws': 0 };
  for (const outcome of outcomes) counts[outcome]++;
  return counts;
}

/** `check` over generated input, its outcomes tallied (and printed, for the record). */
function tallyOver<T>(label: string, input: fc.Arbitrary<T>, numRuns: number, check: (value: T) => Outcome | null) {
  const outcomes: Outcome[] = [];
  fc.assert(
    fc.property(input, (value) => {
      const outcome = check(value);
      if (outcome) outcomes.push(outcome);
    }),
    { numRuns },
  );
  console.info(`${label}:`, tally(outcomes));
  return tally(outcomes);
}

describe('Markdown from the parsed tree, against turndown', () => {
  it('matches on generated Markdown, links on and off', () => {
    const counts = tallyOver('generated Markdown', fc.tuple(markdown, fc.boolean()), 1500, ([md, includeLinks]) =>
      compare(markdownToHtml(md), null, includeLinks),
    );
    // Most generated documents carry raw HTML that is not plain; enough must still be compared to prove anything.
    expect(counts.same).toBeGreaterThan(150);
  });

  it('matches on generated HTML, links on and off', () => {
    const input = fc.tuple(html, fc.constantFrom(null, 'https://example.com/dir/page.html'), fc.boolean());
    const counts = tallyOver('generated HTML as supplied', input, 3000, ([markup, baseUrl, includeLinks]) =>
      compare(markup, baseUrl, includeLinks),
    );
    expect(counts.same).toBeGreaterThan(300);
  });

  it('matches on generated HTML parsed as it stands (comments left out, as htmlToMarkdown does)', () => {
    const counts = tallyOver('generated HTML as it stands', fc.tuple(html, fc.boolean()), 3000, ([markup, includeLinks]) =>
      /<[!?]|<\/[^a-zA-Z]/.test(markup) ? null : compareSource(markup, includeLinks),
    );
    expect(counts.same).toBeGreaterThan(300);
  });

  it("matches on htmlToMarkdown's own cases", () => {
    const dir = new URL('../../article-html/src/fixtures/markdown/', import.meta.url);
    const fixtures = readdirSync(dir)
      .filter((name) => name.endsWith('.html'))
      .map((name) => readFileSync(new URL(name, dir), 'utf8'));
    const inline = [
      '<p>Read <a href="https://example.com/a">the article</a> <img src="https://example.com/i.png" alt="pic"> now.</p>',
      '<a href="javascript:alert(1)">x</a> <img src="vbscript:x" alt="y">',
      '',
      '<p> </p><div><br></div><script>x</script>',
      '<h2>Заголовок</h2><p>Ελληνικά 中文 العربية עברית</p>',
      '<p>one<br>two</p>',
    ];
    const outcomes = [...fixtures, ...inline].flatMap((markup) => [compare(markup, null, false), compare(markup, null, true)]);
    // tables.html reshapes its tables (refused); messy.html and the script are not plain markup.
    expect(tally(outcomes)).toEqual({ same: 18, refused: 2, 'not plain': 4, 'domino throws': 0 });
    const asSource = [...fixtures, ...inline].flatMap((markup) => [compareSource(markup, false), compareSource(markup, true)]);
    // messy.html has a <script> and tables.html reshaped tables; the script case is plain text around a script.
    expect(tally(asSource)).toEqual({ same: 18, refused: 6, 'not plain': 0, 'domino throws': 0 });
  });

  it('takes the benchmark article, links on and off', () => {
    const article = markdownToHtml(sampleArticle(1500));
    expect(compare(article, null, false)).toBe('same');
    expect(compare(article, null, true)).toBe('same');
  });

  it('takes pinned edge cases the generators rarely reach', () => {
    const cases = [
      '<pre>\n\nkept</pre>', // the leading newline lost in the round trip through markup
      '<pre><code>\nx</code></pre>',
      '<p>a <b> </b> c <i></i> d</p>',
      '<ul><li>a <em>b</em> </li><li><p>c</p></li></ul>',
      '<ol start="3"><li>x</li><li><input type="checkbox" disabled checked> y</li></ol>',
      '<table><caption>c </caption><tbody><tr><th align="right">a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></tbody></table>',
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>',
      '<div class="highlight-source-js"><pre>let x;</pre></div>',
      '<p>- not a list, 1. not a list, <i>_x_</i> &lt;div&gt; `tick`</p>',
      'text only, with  spaces &amp; an entity ',
    ];
    const outcomes = cases.flatMap((markup) => [compare(markup, null, false), compare(markup, null, true)]);
    expect(tally(outcomes)).toEqual({ same: cases.length * 2, refused: 0, 'not plain': 0, 'domino throws': 0 });
    // In quirks mode a table stays inside a paragraph; parsed again it would not: refused.
    expect(compare('<p>a<table><tr><td>1</td><td>2</td></tr></table>b</p>', null, false)).toBe('refused');
  });

  /**
   * Real articles: the pages of the extraction dev set (when this machine has it), reduced to their article as a url
   * input is. Extraction takes ≈0.4 s a page, so every sixth page is taken unless FOLIO_ALL_PAGES is set.
   */
  const pages = '/work/shared/bench-data/extraction/html';
  it.skipIf(!existsSync(pages))('matches on the articles extracted from real pages', { timeout: 600_000 }, () => {
    const names = readdirSync(pages).filter((n) => n.endsWith('.html.gz')).sort();
    const plain: Outcome[] = [];
    const source: Outcome[] = [];
    for (const name of names.filter((_, i) => process.env.FOLIO_ALL_PAGES || i % 6 === 0)) {
      const page = gunzipSync(readFileSync(join(pages, name))).toString('utf8');
      const url = 'https://example.com/article';
      let contentHtml: string;
      try {
        contentHtml = extractArticle(withinNesting(page), {
          url,
          sanitize: (content, restore) => sanitizeContent(content, { baseUrl: url, restore }),
        }).contentHtml;
      } catch {
        continue; // no article found: nothing to convert
      }
      for (const includeLinks of [false, true]) {
        plain.push(compare(contentHtml, url, includeLinks));
        source.push(compareSource(contentHtml, includeLinks));
      }
    }
    console.info('extracted articles × links off/on: as supplied', tally(plain), 'as extracted', tally(source));
    expect(tally(source).same).toBeGreaterThan(source.length * 0.9);
  });
});
