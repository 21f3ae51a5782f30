import { describe, expect, it } from 'vitest';
import { buildDocx } from './index.ts';
import { estimateNestingDepth, flattenMarkup, MAX_NESTING } from '@folio/dom';
import { parseXmlPart, readDocx } from './test-support/docx-reader.ts';
import { parseArticle } from './article-markup.ts';

async function build(contentHtml: string, sourceUrl: string | null = null) {
  const buffer = await buildDocx({ title: 'Odd', headerText: null, author: null, sourceUrl, contentHtml, pageSize: 'letter', fetchImage: async () => null });
  return readDocx(buffer);
}

describe('markup that degrades to text', () => {
  it('keeps the words of unknown, custom and exotic elements', async () => {
    const docx = await build(
      '<custom-card><x-title>Custom title</x-title> words</custom-card><marquee>Scrolling news</marquee><p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, E=mc<sup>2</sup>, <mark>marked</mark>, <abbr title="x">abbr</abbr></p><details><summary>More</summary>Hidden detail</details><dl><dt>Term</dt><dd>Definition</dd></dl>',
    );
    for (const words of ['Custom title words', 'Scrolling news', 'Ctrl', 'H2O', 'marked', 'abbr', 'More', 'Hidden detail', 'Term', 'Definition']) {
      expect(docx.text.replace(/\s+/g, ' ')).toContain(words);
    }
  });

  it('repairs unclosed and misnested tags as a browser would', async () => {
    const docx = await build('<p><b>bold <i>both</b> italic?<p>next<table><td>cell without row<div>block in cell');
    expect(docx.text).toContain('bold both italic?');
    expect(docx.text).toContain('next');
    expect(docx.html).toContain('<td><p>cell without row</p><p>block in cell</p></td>');
  });

  it('never shows script or style source, and leaves out what Word cannot have', async () => {
    const docx = await build(
      '<p>Visible</p><script>document.write("SCRIPT-TEXT")</script><style>p::after { content: "STYLE-TEXT" }</style><noscript>NOSCRIPT-TEXT</noscript><template>TEMPLATE-TEXT</template><iframe src="http://127.0.0.2/"></iframe><video src="http://127.0.0.2/v.mp4"></video><object data="http://127.0.0.2/x"></object>',
    );
    expect(docx.text).toContain('Visible');
    for (const hidden of ['SCRIPT-TEXT', 'STYLE-TEXT', 'NOSCRIPT-TEXT', 'TEMPLATE-TEXT', '127.0.0.2']) {
      expect(docx.text).not.toContain(hidden);
      expect(docx.documentXml).not.toContain(hidden);
    }
    expect(docx.parts.join(' ')).not.toMatch(/embeddings|activeX/i);
  });

  it('keeps only links a reader can safely follow', async () => {
    const docx = await build(
      '<p><a href="javascript:alert(1)">js</a> <a href="file:///etc/passwd">file</a> <a href="\\\\attacker\\share">unc</a> <a href="data:text/html,<script>1</script>">data</a> <a href="vbscript:x">vbs</a> <a href="/about">relative</a> <a href="https://ok.example/">web</a> <a href="tel:+15551234">call</a></p>',
    );
    expect(docx.html).toContain('<p>js file unc data vbs relative <a href="https://ok.example/">web</a> <a href="tel:+15551234">call</a></p>');
    const relationships = await docx.part('word/_rels/document.xml.rels');
    expect(relationships).not.toMatch(/javascript|file:|attacker|data:|vbscript/);
  });

  it('resolves relative links against the source page', async () => {
    const docx = await build('<p><a href="/about?x=1">about</a></p>', 'https://news.example/story/today');
    expect(docx.html).toContain('<a href="https://news.example/about?x=1">about</a>');
  });

  it('drops characters XML cannot carry, so Word can open the file', async () => {
    const docx = await build('<p>bell\u0007 null\u0000 escape\u001b form\u000c lone\ud800 end</p>');
    await expect(parseXmlPart(docx, 'word/document.xml')).resolves.toBeDefined();
    expect(docx.text).toMatch(/bell null escape form ?lone.? end/);
  });

  it('builds a document with nothing but the title from empty content', async () => {
    const docx = await build('');
    expect(docx.html).toBe('<h1 class="doc-title">Odd</h1>');
  });

  it('survives absurd table spans', async () => {
    const docx = await build('<table><tr><td colspan="100000" rowspan="100000">wide</td><td>next</td></tr><tr><td>below</td></tr></table>');
    expect(docx.text).toContain('wide');
    expect(docx.text).toContain('below');
  });

  it('lays out right-to-left paragraphs right to left', async () => {
    const docx = await build('<p dir="rtl">שלום עולם</p>');
    expect(docx.documentXml).toMatch(/<w:bidi\/>.*שלום עולם/);
  });
});

describe('pathologically deep markup', () => {
  it.each([
    ['div', 50_000],
    ['span', 50_000],
    ['ul><li', 20_000],
    ['blockquote', 20_000],
    ['table><tr><td', 5_000],
  ])('keeps the text of <%s> nested %i deep without overflowing the stack', async (tag, depth) => {
    const close = tag.split('><').reverse().map((name) => `</${name}>`).join('');
    const docx = await build(`<p>Intro</p>${`<${tag}>`.repeat(depth)}deep text${close.repeat(depth)}<p>Outro</p>`);
    expect(docx.text).toMatch(/Intro[\s\S]*deep text[\s\S]*Outro/);
  });

  it('keeps structure for markup nested as deep as real articles go', async () => {
    const docx = await build(`${'<div>'.repeat(MAX_NESTING - 10)}<h2>Still a heading</h2><ul><li>item</li></ul>${'</div>'.repeat(MAX_NESTING - 10)}`);
    expect(docx.html).toContain('<h2>Still a heading</h2><ul><li>item</li></ul>');
  });
});

describe('estimateNestingDepth', () => {
  it('counts nested elements', () => {
    expect(estimateNestingDepth('<div><section><p>x</p></section></div>')).toBe(2);
    expect(estimateNestingDepth('<div></div><div><div></div></div>')).toBe(2);
  });

  it('does not count void, optional-end, self-closed or commented tags, or raw text', () => {
    expect(estimateNestingDepth('<p>a<p>b<p>c<li>d<li>e<br><img src=x><hr/>')).toBe(0);
    expect(estimateNestingDepth('<!-- <div><div><div> --><span/>')).toBe(0);
    expect(estimateNestingDepth('<script>"<div><div><div>"</script><style>/* <div> */</style>')).toBe(1);
  });

  it('is not fooled by a < that starts no tag', () => {
    expect(estimateNestingDepth('a < b and 1<2 <3 <!doctype html><? pi ?>')).toBe(0);
    // Unclosed inline elements end with the paragraph or the element around them, as a parser ends them.
    expect(estimateNestingDepth('<p>a <more>b</p>'.repeat(10_000))).toBe(1);
    expect(estimateNestingDepth('<div><b>x</div>'.repeat(10_000))).toBe(2);
    expect(estimateNestingDepth('<li><b>x<li><i>y'.repeat(5_000))).toBe(1);
    expect(estimateNestingDepth('<div>'.repeat(10_000), 300)).toBe(301);
  });
});

describe('flattenMarkup', () => {
  it('turns blocks into paragraphs of their text, keeping entities for the parser', () => {
    expect(flattenMarkup('<div><h1>Title</h1><p>a &amp; <b>b</b></p><ul><li>one<li>two</ul></div>')).toBe('<p>Title</p><p>a &amp; b</p><p>one</p><p>two</p>');
  });

  it('drops comments and raw text, and escapes a stray <', () => {
    expect(flattenMarkup('<p>1 < 2<!-- hidden --><script>alert(1)</script><style>p{}</style> ok</p>')).toBe('<p>1 &lt; 2 ok</p>');
  });
});

describe('what is never fetched', () => {
  it('does not fetch images inside noscript, templates or inline SVG', async () => {
    const requested: string[] = [];
    await buildDocx({
      title: 'Fallbacks',
      headerText: null,
      author: null,
      sourceUrl: null,
      contentHtml:
        '<noscript><img src="https://img.example/noscript.png"></noscript><template><img src="https://img.example/template.png"></template><svg><foreignObject><img src="https://img.example/svg.png"></foreignObject></svg><img src="https://img.example/real.png">',
      pageSize: 'letter',
      fetchImage: async (url) => {
        requested.push(url);
        return null;
      },
    });
    expect(requested).toEqual(['https://img.example/real.png']);
  });
});

describe('what parsing the article leaves out', () => {
  it("drops scripts, document-level elements and a picture's other sources, and keeps a video's", () => {
    const body = parseArticle(
      '<base href="http://127.0.0.2/"><link rel="stylesheet" href="x.css"><meta name="m" content="c"><script>s()</script>' +
        '<p>kept<noscript>fallback</noscript></p><picture><source srcset="big.png"><img src="small.png"></picture>' +
        '<video><source src="v.mp4"></video><svg aria-label="chart"><script>t()</script></svg><template>t</template>',
    );
    expect(body.innerHTML).toBe('<p>kept</p><picture><img src="small.png"></picture><video><source src="v.mp4"></video>chart');
  });
});

describe('tables whose grid would be far larger than their markup', () => {
  const rows = (docx: { documentXml: string }) => docx.documentXml.match(/<w:tr[ >]/g)?.length ?? 0;

  it('puts each cell in its own row, and repeats only the run of header rows that opens a table without <thead>', async () => {
    // What patches/docx+9.15.2.patch changed: each row's cells found once, and whether every row so far is a header
    // kept as rows are read (both were asked again for every row: a 20,000-row table took 34 s, now 15).
    const docx = await build(
      '<table><tr><th>H1</th><th>H2</th></tr><tr><th>H3</th><th>H4</th></tr><tr><td>a</td><td>b</td></tr>' +
        '<tr><th>late</th><th>heads</th></tr><tr><th>mixed</th><td>c</td></tr><tr><td rowspan="2">tall</td><td>d</td></tr><tr><td>e</td></tr></table>',
    );
    const rows = docx.documentXml.split(/<w:tr[ >]/).slice(1).map((row) => ({
      header: row.includes('<w:tblHeader/>'),
      text: [...row.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' '),
    }));
    expect(rows).toEqual([
      { header: true, text: 'H1 H2' },
      { header: true, text: 'H3 H4' },
      { header: false, text: 'a b' },
      { header: false, text: 'late heads' },
      { header: false, text: 'mixed c' },
      { header: false, text: 'tall d' },
      { header: false, text: 'e' },
    ]);
  });

  it('clips a rowspan at the end of its row group, as a browser lays it out', async () => {
    const docx = await build('<table><tbody><tr><td rowspan="9">tall</td><td>one</td></tr><tr><td>two</td></tr></tbody><tbody><tr><td>three</td><td>four</td></tr></tbody></table>');
    expect(rows(docx)).toBe(3);
    expect(docx.text.replace(/\s+/g, ' ')).toMatch(/tall.*one.*two.*three.*four/);
  });

  it('builds 80 cells each spanning 65,534 rows and 1,000 columns as 80 rows of their text', async () => {
    // A browser lays this out as 80 rows of 80,000 columns; docx's importer built every slot and ran out of memory.
    const docx = await build(`<table>${'<tr><td rowspan="65534" colspan="1000">spanning</td></tr>'.repeat(80)}</table>`);
    expect(rows(docx)).toBe(80);
    expect(docx.text.match(/spanning/g)).toHaveLength(80);
    expect(docx.documentXml.match(/<w:tc[ >]/g)?.length).toBeLessThan(20_000);
  });

  it('keeps spans that do not make the grid larger than the table', async () => {
    const docx = await build('<table><tr><td colspan="2">wide</td></tr><tr><td rowspan="2">tall</td><td>b</td></tr><tr><td>c</td></tr></table>');
    expect(docx.documentXml).toContain('<w:gridSpan w:val="2"/>');
    expect(docx.documentXml).toContain('<w:vMerge w:val="restart"/>');
  });

  it('writes the rows of a table with one row far wider than the rest as paragraphs', async () => {
    // 1,000 one-cell rows and one of 1,000 cells: docx pads every row to the widest, a million slots.
    const docx = await build(`<table><caption>Ragged</caption>${'<tr><td>short</td></tr>'.repeat(1000)}<tr>${'<td>w</td>'.repeat(1000)}</tr></table>`);
    expect(docx.documentXml).not.toContain('<w:tbl>');
    expect(docx.text).toContain('Ragged');
    expect(docx.text.match(/short/g)).toHaveLength(1000);
    expect(docx.text).toContain(Array(1000).fill('w').join(' | '));
  });
});
