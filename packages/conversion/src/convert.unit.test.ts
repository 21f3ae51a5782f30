import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { convert, ConversionError, isHomepage, prepare } from './index.ts';

const options = { ...DEFAULT_OPTIONS, title: 'T', header_text: 'Header', lang: 'en', dir: 'ltr' };
const md = '# Head\n\nSome **bold** text with a [link](https://example.com).\n\n- [x] done\n- [ ] todo\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ https://auto.example\n\n```js\nlet x = 1 < 2;\n```\n\n<script>alert(1)</script><img src=x onerror="alert(2)">\n';
const markdown = (output: 'html' | 'text' | 'markdown' | 'json', extra = {}) =>
  convert({ input: { kind: 'markdown', text: md }, output, options: { ...options, ...extra } });

describe('conversion of supplied markdown and html (no network needed)', () => {
  it('fits a table whose spans would make its grid far larger than its markup, for every output', async () => {
    // 80 cells a browser lays out as 80 rows of 80,000 columns: Chromium took past 20 s to print it.
    const html = `<table>${'<tr><td rowspan="65534" colspan="1000">spanning</td></tr>'.repeat(80)}</table><p>after</p>`;
    const result = await convert({ input: { kind: 'html', text: html }, output: 'html', options });
    if (result.kind !== 'content') throw new Error('expected content');
    expect(result.content).not.toMatch(/rowspan|colspan/);
    expect(result.content.match(/<td>spanning<\/td>/g)).toHaveLength(80);
  });

  it('prints a table far larger than its cells as paragraphs, and any other table as a table', async () => {
    // Chromium lays every slot of a grid out on every page: this one (a million slots) held a print slot 2.4–4.2 s.
    const padded = `<table>${'<tr><td>short</td></tr>'.repeat(1000)}<tr>${'<td>w</td>'.repeat(1000)}</tr></table>`;
    const square = `<table>${`<tr>${'<td>c</td>'.repeat(10)}</tr>`.repeat(300)}</table>`;
    const printed = await prepare({ input: { kind: 'html', text: `${padded}${square}<p>after</p>` }, output: 'pdf', options });
    if (printed.kind !== 'print') throw new Error('expected a printable page');
    expect(printed.html.match(/<table>/g)).toHaveLength(1);
    expect(printed.html.match(/<p>short<\/p>/g)).toHaveLength(1000);
    expect(printed.html).toContain(`<p>${Array(1000).fill('w').join(' | ')}</p>`);
    expect(printed.html.match(/<td>c<\/td>/g)).toHaveLength(3000);
    // The other outputs keep the table as it came.
    const html = await convert({ input: { kind: 'html', text: padded }, output: 'html', options });
    expect(html.kind === 'content' && html.content.match(/<td>w<\/td>/g)).toHaveLength(1000);
  });

  it('prints a run of many lines parted by <br> in blocks of a hundred lines, a paragraph as paragraphs that follow on', async () => {
    // Chromium printed one paragraph's lines again on every page it spanned: 10,000 lines took 14.8 s.
    const lines = (n: number, word: string, from = 0) => Array.from({ length: n }, (_, i) => `${word} ${from + i}<br>`).join('');
    const html = `<p id="poem" class="verse">${lines(250, 'verse')}</p><table><tr><td>${lines(150, 'cell')}</td></tr></table><p>${lines(100, 'short')}</p>`;
    const printed = await prepare({ input: { kind: 'html', text: html }, output: 'pdf', options });
    if (printed.kind !== 'print') throw new Error('expected a printable page');
    const paragraphs = [...printed.html.matchAll(/<p([^>]*)>((?:(?!<\/p>).)*)<\/p>/gs)].filter(([, , body]) => body!.includes('verse '));
    expect(paragraphs.map(([, attributes]) => attributes)).toEqual([' id="poem" class="verse folio-continues"', ' class="verse folio-continues"', ' class="verse"']);
    expect(paragraphs.map(([, , body]) => body!.match(/<br>/g)!.length)).toEqual([100, 100, 50]);
    expect(paragraphs.map(([, , body]) => body).join('')).toBe(lines(250, 'verse'));
    expect(printed.html).toContain(`<td><div>${lines(100, 'cell')}</div><div>${lines(50, 'cell', 100)}</div></td>`);
    // A hundred lines are left as they came.
    expect(printed.html).toContain(`<p>${lines(100, 'short')}</p>`);
  });

  it('keeps a code block’s lines apart in every output where markup, not newlines, made them lines', async () => {
    // Lines copied from a page: CodeMirror's <div> a line, a highlighter's <span class="line">, and <br>s. The Markdown
    // fence, the text and the docx read a <pre> as its text, and ran the lines together.
    const code = '<pre><code><div class="cm-line">function add(a, b) {</div><div class="cm-line">  return a + b;</div><div class="cm-line">}</div></code></pre>'
      + '<pre><span class="line">let x = 1;</span><span class="line">let y = 2;</span></pre><pre>first();<br>second();</pre>';
    const outputs = await Promise.all((['markdown', 'text', 'html', 'json'] as const).map((output) =>
      convert({ input: { kind: 'html', text: `<p>Adding two numbers.</p>${code}` }, output, options })));
    const [markdownOut, textOut, htmlOut, jsonOut] = outputs.map((result) => (result.kind === 'content' ? result.content : ''));
    expect(markdownOut).toContain('```\nfunction add(a, b) {\n  return a + b;\n}\n```');
    expect(markdownOut).toContain('```\nlet x = 1;\nlet y = 2;\n```');
    expect(markdownOut).toContain('```\nfirst();\nsecond();\n```');
    expect(textOut).toContain('function add(a, b) {\n  return a + b;\n}\n\nlet x = 1;\nlet y = 2;\n\nfirst();\nsecond();');
    expect(htmlOut).toContain('<pre><code>function add(a, b) {\n  return a + b;\n}</code></pre>');
    // The markup the docx is built from, as json hands it over.
    expect(JSON.parse(jsonOut!).content_html).toContain('<pre>first();\nsecond();</pre>');
  });

  it('leaves no table tag in its markup that is not one, for the scan that finds tables too large to print', async () => {
    // mayHoldTooLargeTable reads tags alone: a comment or an attribute holding "</table>" would mislead it.
    const misleading = '<span title="</table><table>">x</span><!-- </table> -->';
    for (const input of [{ kind: 'markdown', text: `a ${misleading}\n\n| a |\n|---|\n| b |` }, { kind: 'html', text: `<p>${misleading}</p><table><tr><td>b</td></tr></table>` }] as const) {
      const result = await convert({ input, output: 'json', options });
      if (result.kind !== 'content') throw new Error('expected content');
      const html: string = JSON.parse(result.content).content_html;
      expect(html.match(/<\/?table[\s>]/g), input.kind).toEqual(['<table>', '</table>']);
    }
  });

  it('renders GitHub-flavoured markdown into a script-free article page', async () => {
    const result = await markdown('html');
    expect(result.kind).toBe('content');
    if (result.kind !== 'content') return;
    expect(result.content).toMatch(/<html[^>]* lang="en"/);
    expect(result.content).toMatch(/<html[^>]* dir="ltr"/);
    expect(result.content).toContain('>T</h1>');
    expect(result.content).toContain('Header');
    expect(result.content).toContain('<table>');
    expect(result.content).toContain('<del>gone</del>');
    expect(result.content).toContain('let x = 1 &lt; 2;');
    expect(result.content).not.toMatch(/<script|onerror|alert\(/i);
    expect(result.document).toMatchObject({ title: 'T', word_count: expect.any(Number) });
  });

  it('renders readable text and markdown, with and without link addresses', async () => {
    const text = await markdown('text');
    if (text.kind !== 'content') throw new Error('expected content');
    expect(text.content.startsWith('T\n\nHead\n\nSome bold text with a link.')).toBe(true);
    expect(text.content).not.toMatch(/<[a-z]/);
    const linked = await markdown('text', { include_links: true });
    if (linked.kind !== 'content') throw new Error('expected content');
    expect(linked.content).toContain('https://example.com');

    const md2 = await markdown('markdown');
    if (md2.kind !== 'content') throw new Error('expected content');
    expect(md2.content).toMatch(/^# T\n\n# Head/);
    expect(md2.content).toMatch(/\| a +\| b +\|/);
    expect(md2.content).not.toContain('https://example.com');
  });

  it('returns the article document for json', async () => {
    const result = await convert({ input: { kind: 'markdown', text: '# A\n\nb c' }, output: 'json', options: DEFAULT_OPTIONS });
    if (result.kind !== 'content') throw new Error('expected content');
    const doc = JSON.parse(result.content);
    expect(doc.content_html).toContain('<h1>A</h1>');
    expect(doc.content_markdown).toContain('# A');
    expect(doc.word_count).toBe(3);
  });

  it('treats supplied html as the article body: sanitised, links resolved against source_url', async () => {
    const result = await convert({
      input: { kind: 'html', text: '<p>Read <a href="/more">more</a></p><script>x()</script><p onclick="y()">Second</p>' },
      output: 'html',
      options: { ...DEFAULT_OPTIONS, source_url: 'https://news.example/a/b', title: 'Given' },
    });
    if (result.kind !== 'content') throw new Error('expected content');
    expect(result.content).toContain('href="https://news.example/more"');
    expect(result.content).not.toMatch(/<script|onclick/);
    expect(result.document).toMatchObject({ title: 'Given', url: 'https://news.example/a/b', site: 'news.example' });
  });

  it('detects right-to-left text', async () => {
    const result = await convert({ input: { kind: 'markdown', text: 'مرحبا بالعالم هذا نص عربي طويل بما يكفي للكشف' }, output: 'html', options: DEFAULT_OPTIONS });
    if (result.kind !== 'content') throw new Error('expected content');
    expect(result.content).toMatch(/<html[^>]* dir="rtl"/);
  });

  it('refuses front pages, and pdf without a browser', async () => {
    expect(isHomepage('https://example.com/')).toBe(true);
    expect(isHomepage('https://example.com/index.html')).toBe(true);
    expect(isHomepage('https://example.com/2024/05/story')).toBe(false);
    expect(isHomepage('https://example.com/?p=12')).toBe(false);
    await expect(convert({ input: { kind: 'url', text: 'https://example.com/' }, output: 'text', options: DEFAULT_OPTIONS })).rejects.toMatchObject({ code: 'homepage_url' });
    await expect(convert({ input: { kind: 'markdown', text: 'x' }, output: 'pdf', options: DEFAULT_OPTIONS })).rejects.toBeInstanceOf(ConversionError);
  });
});

  it('fails supplied input with nothing left to read or see, so that an empty document is never counted', async () => {
    const empty = [
      ['markdown', ''], ['markdown', ' \n\t\n'], ['markdown', '#\n\n---\n\n\u200b'], ['markdown', '<script>alert(1)</script>'],
      ['html', ''], ['html', '<div> <p></p> </div>'], ['html', '<script>alert(1)</script><style>p{}</style><iframe src="https://x.example"></iframe>'],
    ] as const;
    for (const [kind, text] of empty) {
      for (const output of ['text', 'html', 'pdf'] as const) {
        await expect(prepare({ input: { kind, text }, output, options: { ...DEFAULT_OPTIONS, title: 'A title alone' } }), `${kind} ${JSON.stringify(text)} ${output}`)
          .rejects.toMatchObject({ code: 'parse_failed', retryable: false, message: expect.stringContaining(`the ${kind} holds no text or image`) });
      }
    }
    // A word, or an image without one, is content.
    for (const [kind, text] of [['markdown', 'x'], ['markdown', '![](https://example.com/chart.png)'], ['html', '<p><img src="https://example.com/chart.png"></p>'], ['html', '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>']] as const) {
      await expect(prepare({ input: { kind, text }, output: 'html', options: DEFAULT_OPTIONS }), `${kind} ${text}`).resolves.toMatchObject({ kind: 'content' });
    }
  });

  it("reads supplied HTML and a fetched page past a tag manager's <noscript><iframe … /></noscript>", async () => {
    // Written self-closing, as JSX writes it: read with scripting off, the iframe would take the rest as its text.
    const tagManager = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display:none" /></noscript>';
    const body = `<h1>Your fastest path to production</h1>${'<p>Connect the repository, choose a runtime, and every push deploys itself to the service.</p>'.repeat(6)}`;
    const supplied = await convert({ input: { kind: 'html', text: `${tagManager}${body}` }, output: 'text', options: DEFAULT_OPTIONS });
    if (supplied.kind !== 'content') throw new Error('expected content');
    expect(supplied.content).toContain('Connect the repository, choose a runtime');
    const page = `<!doctype html><html><head><title>Render</title></head><body>${tagManager}<main>${body}</main></body></html>`;
    const fetcher = { fetch: async (url: string) => ({ url, html: page, charset: 'utf-8', bytes: page.length }), fetchImage: async () => null };
    const fetched = await convert({ input: { kind: 'url', text: 'https://render.example/platform' }, output: 'text', options: DEFAULT_OPTIONS }, { fetcher });
    if (fetched.kind !== 'content') throw new Error('expected content');
    expect(fetched.content).toContain('Connect the repository, choose a runtime');
  });

describe('a web page\'s metadata', () => {
  const story = (head: string) => `<!doctype html><html><head>${head}</head><body><article><h1>Marathon in One Year for Beginners</h1>
${'<p>Start with three short runs a week, and add a longer one every other weekend until the distance stops frightening you.</p>'.repeat(8)}
</article></body></html>`;
  const fetched = (html: string) => ({
    fetch: async (url: string) => ({ url, html, charset: 'utf-8', bytes: html.length }),
    fetchImage: async () => null,
  });

  it('names as site the host of its url, the canonical address when the page states one', async () => {
    const html = story(`<title>Marathon in One Year for Beginners » Take The Magic Step®</title>
<link rel="canonical" href="https://takethemagicstep.example/marathon-in-one-year">`);
    const result = await convert({ input: { kind: 'url', text: 'http://127.0.0.1:8080/copy/marathon' }, output: 'text', options: DEFAULT_OPTIONS }, { fetcher: fetched(html) });
    expect(result.document).toMatchObject({
      title: 'Marathon in One Year for Beginners',
      url: 'https://takethemagicstep.example/marathon-in-one-year',
      site: 'takethemagicstep.example',
    });
    const plain = await convert(
      { input: { kind: 'url', text: 'http://127.0.0.1:8080/copy/marathon' }, output: 'text', options: DEFAULT_OPTIONS },
      { fetcher: fetched(story('<title>Marathon in One Year for Beginners » Take The Magic Step®</title>')) },
    );
    expect(plain.document).toMatchObject({ title: 'Marathon in One Year for Beginners', url: 'http://127.0.0.1:8080/copy/marathon', site: '127.0.0.1' });
  });
});
