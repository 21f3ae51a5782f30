import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHtmlDocument, parseLightBody } from '@folio/dom';
import { htmlToText, nodeToText } from './text.ts';

describe('htmlToText: the plain-text layout of article HTML', () => {
  it('ends no line in spaces, tabs or no-break spaces, and keeps a long run inside a line', () => {
    // 200,000 tabs inside a line took about a minute while a regular expression retried the run from each tab.
    const text = htmlToText(`<pre>a${'\t'.repeat(200_000)}x \t\u00a0\nnext\t</pre><p>end&nbsp; </p>`);
    expect(text).toBe(`a${'\t'.repeat(200_000)}x\nnext\n\nend`);
  });

  it('separates paragraphs by a blank line and puts headings on their own lines', () => {
    const text = htmlToText('<h2>First part</h2><p>One <b>bold</b>\n  word.</p><p>Two.</p><h3>Second</h3><p>Three.</p>');
    expect(text).toBe('First part\n\nOne bold word.\n\nTwo.\n\nSecond\n\nThree.');
  });

  it('keeps blocks apart that textContent would run together', () => {
    const text = htmlToText('<div><div>Headline</div><div>Paragraph</div></div><section>Next</section>');
    expect(text).toBe('Headline\n\nParagraph\n\nNext');
  });

  it('bullets unordered lists and numbers ordered ones, honouring start, value and reversed', () => {
    expect(htmlToText('<p>Intro</p><ul><li>apples</li><li>pears</li></ul><p>After</p>')).toBe(
      'Intro\n\n• apples\n• pears\n\nAfter',
    );
    expect(htmlToText('<ol start="3"><li>three</li><li>four</li><li value="9">nine</li><li>ten</li></ol>')).toBe(
      '3. three\n4. four\n9. nine\n10. ten',
    );
    expect(htmlToText('<ol reversed><li>c</li><li>b</li><li>a</li></ol>')).toBe('3. c\n2. b\n1. a');
  });

  it('indents nested lists and the paragraphs of an item under its bullet', () => {
    const text = htmlToText('<ul><li>fruit<ul><li>apples</li><li>pears</li></ul></li><li><p>veg</p><p>more veg</p></li></ul>');
    expect(text).toBe('• fruit\n  • apples\n  • pears\n• veg\n\n  more veg');
  });

  it('writes table rows one per line with tab-separated cells', () => {
    const html = '<table><caption>Prices</caption><thead><tr><th>Item</th><th>Price</th></tr></thead>' +
      '<tbody><tr><td>Tea</td><td>£2</td></tr><tr><td>Cake <b>slice</b></td><td>£3.50</td></tr></tbody></table><p>After</p>';
    expect(htmlToText(html)).toBe('Prices\nItem\tPrice\nTea\t£2\nCake slice\t£3.50\n\nAfter');
  });

  it('reads a layout table (one cell per row) as the blocks it holds', () => {
    expect(htmlToText('<table><tr><td><p>One.</p></td></tr><tr><td><p>Two.</p></td></tr></table>')).toBe('One.\n\nTwo.');
  });

  it('turns <br> into a line break and keeps <pre> verbatim', () => {
    expect(htmlToText('<p>line one<br>line two<br><br>line four</p>')).toBe('line one\nline two\n\nline four');
    expect(htmlToText('<p>Code:</p><pre>  if (a &lt; b) {\n    go();<br>  }</pre><p>Done.</p>')).toBe(
      'Code:\n\n  if (a < b) {\n    go();\n  }\n\nDone.',
    );
  });

  it('decodes entities, drops markup, scripts, styles and hidden elements', () => {
    const html = '<p>Fish &amp; chips &mdash; &quot;cheap&quot;&nbsp;&lt;tag&gt; caf&eacute;</p>' +
      '<script>alert(1)</script><style>p{color:red}</style><p hidden>secret</p><template><p>t</p></template>';
    expect(htmlToText(html)).toBe('Fish & chips — "cheap" <tag> café');
  });

  it('keeps link words only by default, and appends addresses and images with includeLinks', () => {
    const html = '<p>Read <a href="https://example.org/report">the report</a> and <a href="#notes">notes</a>.</p>' +
      '<figure><img src="https://example.org/a.jpg" alt="A harbour"><figcaption>The harbour at dawn.</figcaption></figure>';
    expect(htmlToText(html)).toBe('Read the report and notes.');
    expect(htmlToText(html, { includeLinks: true })).toBe(
      'Read the report (https://example.org/report) and notes.\n\n[image: A harbour](https://example.org/a.jpg)\n\nThe harbour at dawn.',
    );
  });

  it('keeps captions in a text that has no other words than headings: a gallery is its captions', () => {
    const gallery = '<figure><img src="https://example.org/a.jpg" alt="Pier"><figcaption>The pier at dawn.</figcaption></figure>' +
      '<figure><img src="https://example.org/b.jpg" alt="Boats"><figcaption>The boats <a href="/fleet">come in</a>.</figcaption></figure>';
    expect(htmlToText(gallery)).toBe('The pier at dawn.\n\nThe boats come in.');
    expect(htmlToText(`<h2>The coast</h2>${gallery}`)).toBe('The coast\n\nThe pier at dawn.\n\nThe boats come in.');
    // Where there are other words, however few (an article's pictures, a page of teasers), the captions go with their
    // images as before.
    expect(htmlToText(`<p>Photographs.</p>${gallery}`)).toBe('Photographs.');
    expect(htmlToText(`<h2>The coast</h2><p>Photographs.</p>${gallery}`)).toBe('The coast\n\nPhotographs.');
    // A grid's cells count with the text around them, not by themselves: a gallery set out in a table is one still,
    // and a cell of captions in a table of prices is not.
    const cellOf = (caption: string) => `<td><figure><img src="https://example.org/c.jpg"><figcaption>${caption}</figcaption></figure></td>`;
    expect(htmlToText(`<table><tr>${cellOf('The pier.')}${cellOf('The boats.')}</tr></table>`)).toBe('The pier.\tThe boats.');
    expect(htmlToText(`<p>Prices.</p><table><tr>${cellOf('cap')}<td>1</td></tr></table>`)).toBe('Prices.\n\n\t1');
  });

  it('names inline data: images without their bytes', () => {
    const html = `<p><img src="data:image/png;base64,${'A'.repeat(400)}" alt="Chart"></p>`;
    expect(htmlToText(html, { includeLinks: true })).toBe('[image: Chart]');
  });

  it('does not repeat an address that is already the link text', () => {
    expect(htmlToText('<p>See <a href="https://example.org/">https://example.org/</a></p>', { includeLinks: true })).toBe(
      'See https://example.org/',
    );
  });

  it('lays out definition lists and blockquotes as blocks', () => {
    expect(htmlToText('<dl><dt>Term</dt><dd>Meaning</dd></dl><blockquote><p>Quoted.</p></blockquote>')).toBe(
      'Term\n  Meaning\n\nQuoted.',
    );
  });

  it('puts a table cell on one line, reading a long blank run once', () => {
    // 200,000 tabs before the break: the pattern around the break read the run again from each tab (minutes).
    const text = htmlToText(`<table><tr><td><pre>a${'\t'.repeat(200_000)}x\n \ty</pre></td><td>b \n c</td></tr></table>`);
    expect(text).toBe(`a${' '.repeat(200_000)}x y\tb c`);
  });

  it('returns an empty string for empty or whitespace-only HTML', () => {
    expect(htmlToText('')).toBe('');
    expect(htmlToText('<div> \n </div><p></p>')).toBe('');
  });
});

describe('htmlToText over the light tree', () => {
  // The walk once read jsdom's tree; it now reads parse5's through @folio/dom's light nodes. Both must lay out the
  // same text for any markup, including the malformed kind the parser repairs.
  const piece = fc.oneof(
    fc.constantFrom(
      '<p>', '</p>', '<br>', '<ul>', '</ul>', '<ol start="3">', '<ol reversed>', '</ol>', '<li>', '<li value="7">', '</li>',
      '<table>', '</table>', '<tr>', '</tr>', '<td>', '</td>', '<th>', '<caption>', '<thead>', '<tbody>', '<pre>', '</pre>',
      '<a href="https://example.com/x">', '<a href="#top">', '</a>', '<img src="https://example.com/i.png" alt="A  cat">',
      '<img src="data:image/png;base64,AAAA">', '<h2>', '</h2>', '<blockquote>', '</blockquote>', '<dl><dt>', '<dd>',
      '<div hidden>', '</div>', '<script>x</script>', '<svg><text>no</text></svg>', '<figure><figcaption>cap</figcaption></figure>',
      '<!-- note -->', '&nbsp;', '&amp;', '\n', '\t', '  ',
    ),
    fc.stringMatching(/^[a-zA-Z ,.é✓]{1,12}$/),
  );
  const markup = fc.array(piece, { maxLength: 60 }).map((pieces) => pieces.join(''));

  it('gives the text jsdom’s tree gives, with and without links', () => {
    fc.assert(
      fc.property(markup, fc.boolean(), (html, includeLinks) => {
        const body = parseHtmlDocument(`<!DOCTYPE html><body>${html}`).body;
        // jsdom puts text foster-parented out of a table after the table, not before it as the HTML standard (and
        // parse5 on its own) does: the trees differ there, so only markup both parse alike is compared.
        fc.pre(body.innerHTML === parseLightBody(html).html());
        const viaJsdom = nodeToText(body, { includeLinks });
        expect(htmlToText(html, { includeLinks })).toBe(viaJsdom);
      }),
      { numRuns: 400 },
    );
  });

  it('reads a document without a body (a frameset) as no text, without failing', () => {
    expect(htmlToText('<frameset><frame src="x"></frameset>')).toBe('');
  });
});
