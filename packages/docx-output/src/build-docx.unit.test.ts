import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocx, type DocxInput } from './index.ts';
import { coreProperties, parseXmlPart, pictureSizes, readDocx } from './test-support/docx-reader.ts';
import { JPEG_160X90 } from './test-support/images.ts';

const ARTICLE = readFileSync(new URL('./fixtures/article.html', import.meta.url), 'utf8');

function input(overrides: Partial<DocxInput> = {}): DocxInput {
  return {
    title: 'Surveying the Estuary',
    headerText: 'Coastal Review · Issue 7',
    author: 'Ada Marsh',
    sourceUrl: 'https://coast.example/articles/estuary?ref=feed&lang=en',
    contentHtml: ARTICLE,
    pageSize: 'letter',
    fetchImage: async (url) => (url === 'https://images.example/estuary.jpg' ? { data: JPEG_160X90, contentType: 'image/jpeg' } : null),
    ...overrides,
  };
}

describe('buildDocx on a fixture article', async () => {
  const docx = await readDocx(await buildDocx(input()));

  it('puts the header text, the title and the byline with the source link above the content, in that order', () => {
    expect(docx.html).toContain('<p class="header-text">Coastal Review · Issue 7</p>');
    expect(docx.html).toContain('<h1 class="doc-title">Surveying the Estuary</h1>');
    expect(docx.html).toContain(
      '<p class="source">Ada Marsh · <a href="https://coast.example/articles/estuary?ref=feed&amp;lang=en">https://coast.example/articles/estuary?ref=feed&amp;lang=en</a></p>',
    );
    const order = ['Coastal Review', 'Surveying the Estuary', 'https://coast.example', 'Field notes on the'].map((s) => docx.text.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('maps h1–h6 to Word heading styles', () => {
    expect(docx.html).toContain('<h1>Field notes on the <em>tidal</em> estuary</h1>');
    expect(docx.html).toContain('<h2>Equipment</h2>');
    expect(docx.html).toContain('<h3>Procedure</h3>');
    expect(docx.html).toContain('<h4>Soundings</h4>');
    expect(docx.html).toContain('<h5>Processing script</h5>');
    expect(docx.html).toContain('<h6>Credits</h6>');
  });

  it('keeps bold, italic, underline, strike-through and inline code as run formatting', () => {
    expect(docx.html).toContain('<strong>low water</strong>');
    expect(docx.html).toContain('<em>widest</em>');
    expect(docx.html).toContain('<s>plainly</s>');
    expect(docx.documentXml).toMatch(/<w:u w:val="single"\/><\/w:rPr><w:t xml:space="preserve">narrowest<\/w:t>/);
    expect(docx.html).toContain('<code>tide --log=estuary.csv</code>');
    expect(docx.documentXml).toMatch(/<w:rStyle w:val="FolioInlineCode"\/><w:rFonts w:ascii="Courier New"[^>]*\/><\/w:rPr><w:t xml:space="preserve">tide --log=estuary.csv</);
  });

  it('makes links real hyperlinks, with their addresses intact', () => {
    expect(docx.html).toContain('<a href="https://tides.example.org/stations/42?units=metric&amp;format=table">station 42 tables</a>');
    expect(docx.html).toContain('<a href="mailto:survey@example.org">survey team</a>');
  });

  it('keeps <br> as a line break inside its paragraph', () => {
    expect(docx.html).toContain('station 42 tables</a>.<br />Readings were taken every ten minutes.');
  });

  it('nests bulleted and numbered lists with their levels', () => {
    expect(docx.html).toContain(
      '<ul><li>Echo sounder, <strong>calibrated</strong> daily</li><li>GPS receivers<ul><li>Base station on the quay</li><li>Rover on the boat<ol><li>Antenna on the mast</li><li>Logger under the seat</li></ol></li></ul></li><li>Tide staff at the slipway</li></ul>',
    );
    const levels = (text: string) => new RegExp(`<w:ilvl w:val="(\\d)"/>.*?<w:t xml:space="preserve">${text}<`).exec(docx.documentXml.split('<w:p>').find((p) => p.includes(`>${text}<`)) ?? '')?.[1];
    expect([levels('Echo sounder, '), levels('Base station on the quay'), levels('Antenna on the mast')]).toEqual(['0', '1', '2']);
  });

  it('numbers ordered lists from their start, and restarts each list', async () => {
    const numbering = await docx.part('word/numbering.xml');
    const numId = (text: string) => /<w:numId w:val="(\d+)"\/>/.exec(docx.documentXml.split('<w:p>').find((p) => p.includes(`>${text}<`)) ?? '')?.[1];
    const procedure = numId('Zero the sounder at the slipway');
    const second = numId('Second list restarts its numbering');
    expect(procedure).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(procedure);
    expect(numbering).toMatch(new RegExp(`<w:num w:numId="${procedure}">.*?<w:lvlOverride w:ilvl="0"><w:startOverride w:val="3"/>`));
    expect(numbering).toMatch(new RegExp(`<w:num w:numId="${second}">.*?<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/>`));
    expect(docx.html).toContain('<ol><li>Zero the sounder at the slipway</li><li>Run the transects from north to south</li>');
  });

  it('builds tables with a repeating header row, cells and merged cells', () => {
    expect(docx.html).toMatch(/<table><thead><tr><th><p><strong>Transect<\/strong><\/p><\/th><th><p><strong>Depth \(m\)<\/strong><\/p><\/th><th><p><strong>Bottom<\/strong><\/p><\/th><\/tr><\/thead>/);
    expect(docx.html).toContain('<tr><td><p>Middle</p></td><td><p>6.8</p></td><td><p>Mud and <em>shell</em></p></td></tr>');
    expect(docx.html).toContain('<td colspan="2"><p>South (merged)</p></td><td><p>Rock</p></td>');
    expect(docx.documentXml).toContain('<w:tblHeader/>');
  });

  it('embeds the figure image with its alt text and styles its caption', () => {
    expect(docx.parts.filter((name) => /^word\/media\/[^/]+\.jpg$/.test(name))).toHaveLength(1);
    expect(docx.html).toMatch(/<img alt="The estuary at low water" src="data:image\/jpeg;base64,\/9j\//);
    expect(docx.html).toContain('<figcaption>The estuary at low water, looking south.</figcaption>');
    // width="480" is honoured; the height follows the JPEG's own 16:9 proportions.
    expect(pictureSizes(docx.documentXml)[0]).toEqual({ width: 480, height: 270 });
  });

  it('embeds data: URL images too', () => {
    expect(docx.parts.filter((name) => /^word\/media\/[^/]+\.gif$/.test(name))).toHaveLength(1);
    expect(docx.html).toContain('<img alt="spacer" src="data:image/gif;base64,');
  });

  it('styles blockquotes as indented quotes', () => {
    expect(docx.html).toContain('<blockquote><p>The sea is not a place to be hurried.</p><p>— the harbour master</p></blockquote>');
    expect(docx.documentXml).toMatch(/<w:pStyle w:val="Quote"\/><w:ind w:left="720"[^>]*\/><\/w:pPr><w:r><w:t xml:space="preserve">The sea is not/);
  });

  it('keeps code blocks monospace with their whitespace and line breaks', () => {
    expect(docx.html).toContain(
      '<pre><code>def reduce(readings):<br />    for r in readings:<br />        yield r.depth - r.tide<br /><br />print("done")</code></pre>',
    );
    expect(docx.documentXml).toMatch(/<w:pStyle w:val="FolioCodeBlock"\/>/);
  });

  it('draws <hr> as a bordered empty paragraph', () => {
    expect(docx.documentXml).toMatch(/<w:p><w:pPr><w:pBdr><w:bottom w:val="single"[^>]*\/><\/w:pBdr><\/w:pPr><\/w:p>/);
  });

  it('writes title and author to the document properties', async () => {
    expect(await coreProperties(docx)).toEqual({ title: 'Surveying the Estuary', creator: 'Ada Marsh' });
  });

  it('writes every XML part well-formed', async () => {
    const xmlParts = docx.parts.filter((name) => /\.(xml|rels)$/.test(name));
    expect(xmlParts).toEqual(expect.arrayContaining(['word/document.xml', 'word/styles.xml', 'word/numbering.xml', '[Content_Types].xml']));
    for (const name of xmlParts) await expect(parseXmlPart(docx, name), name).resolves.toBeDefined();
  });

  it('numbers pages in the footer', async () => {
    const footer = await docx.part('word/footer1.xml');
    expect(footer).toMatch(/<w:instrText[^>]*>PAGE<\/w:instrText>/);
  });
});

describe('page size', () => {
  const pgSz = async (pageSize: DocxInput['pageSize']) => {
    const { documentXml } = await readDocx(await buildDocx(input({ pageSize })));
    return { size: /<w:pgSz ([^>]*)\/>/.exec(documentXml)?.[1], margins: /<w:pgMar ([^>]*)\/>/.exec(documentXml)?.[1] };
  };

  it('is US letter, 8.5 × 11 in (12240 × 15840 twips), with one-inch margins', async () => {
    const { size, margins } = await pgSz('letter');
    expect(size).toContain('w:w="12240" w:h="15840"');
    expect(margins).toContain('w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"');
  });

  it('is A4, 210 × 297 mm (11906 × 16838 twips), on request', async () => {
    const { size } = await pgSz('a4');
    expect(size).toContain('w:w="11906" w:h="16838"');
  });
});

describe('optional parts of the title block', () => {
  it('leaves out the header line and source link when not given, and names Folio as creator without an author', async () => {
    const docx = await readDocx(await buildDocx(input({ headerText: null, sourceUrl: null, author: null })));
    expect(docx.html).not.toContain('header-text');
    expect(docx.html).not.toContain('class="source"');
    expect(docx.html.startsWith('<h1 class="doc-title">Surveying the Estuary</h1>')).toBe(true);
    expect((await coreProperties(docx)).creator).toBe('Folio');
  });

  it('escapes markup characters and drops characters XML cannot carry in title, header and properties', async () => {
    const buffer = await buildDocx(input({ title: 'Tom & Jerry <live> "quoted"\u0001', headerText: 'A\u0007B', author: 'O\'Brien & Co\u0000' }));
    const docx = await readDocx(buffer);
    expect(docx.html).toContain('<h1 class="doc-title">Tom &amp; Jerry &lt;live&gt; "quoted"</h1>');
    expect(docx.html).toContain('<p class="header-text">AB</p>');
    expect(await coreProperties(docx)).toEqual({ title: 'Tom & Jerry <live> "quoted"', creator: "O'Brien & Co" });
    await expect(parseXmlPart(docx, 'word/document.xml')).resolves.toBeDefined();
  });

  it('prints the byline under the title as the pdf does: site · author · date · address, each only when known', async () => {
    const docx = await readDocx(await buildDocx(input({ site: 'coast.example', date: '2024-05-06T07:08:09Z' })));
    expect(docx.html).toContain(
      '<p class="source">coast.example · Ada Marsh · 2024-05-06 · <a href="https://coast.example/articles/estuary?ref=feed&amp;lang=en">',
    );
    const some = await readDocx(await buildDocx(input({ site: null, date: 'Spring 2024', sourceUrl: null })));
    expect(some.html).toContain('<p class="source">Ada Marsh · Spring 2024</p>');
  });

  it('says lineRule="auto" wherever it sets a line height, which LibreOffice would otherwise take as an exact height', async () => {
    // The title is 26 pt; an exact 13.8 pt line (276 twips with no rule) prints a wrapped title's lines over each other.
    const docx = await readDocx(await buildDocx(input({ title: 'A title long enough to wrap onto a second line in any page size Folio prints' })));
    const spacings: string[] = [];
    for (const name of docx.parts.filter((part) => /^word\/.*\.xml$/.test(part))) {
      spacings.push(...[...(await docx.part(name)).matchAll(/<w:spacing\b[^>]*\bw:line="[^"]*"[^>]*>/g)].map((m) => m[0]));
    }
    expect(spacings.length).toBeGreaterThan(0);
    expect(spacings.filter((spacing) => !/\bw:lineRule="auto"/.test(spacing))).toEqual([]);
  });

  it('shows only an http(s) source as a link', async () => {
    const docx = await readDocx(await buildDocx(input({ sourceUrl: 'javascript:alert(1)' })));
    expect(docx.html).not.toContain('javascript');
  });
});
