import { describe, expect, it } from 'vitest';
import { codeLinesAsText, markupWithCodeLinesAsText, mayHoldCodeLines, parseHtmlDocument } from './index.ts';

const body = (html: string) => parseHtmlDocument(`<!DOCTYPE html><body>${html}`).body;
/** The walk over jsdom's tree (a page's), held to give what the walk over parse5's (supplied markup) gives. */
const flattened = (html: string) => {
  const root = body(html);
  const changed = codeLinesAsText(root);
  const markup = markupWithCodeLinesAsText(html);
  expect(markup ?? html, 'parse5 gives what jsdom gives').toBe(root.innerHTML);
  expect(markup !== null, 'parse5 says a change when jsdom does').toBe(changed);
  return { changed, html: root.innerHTML, text: root.querySelector('pre')?.textContent };
};

describe('codeLinesAsText', () => {
  it('makes a block a line (a CodeMirror <div>, the <p> Readability makes of it) text, unwrapping it', () => {
    expect(flattened('<pre><code><div class="cm-line">const a = 1;</div><div class="cm-line">  const b = 2;</div></code></pre>'))
      .toEqual({ changed: true, html: '<pre><code>const a = 1;\n  const b = 2;</code></pre>', text: 'const a = 1;\n  const b = 2;' });
    expect(flattened('<pre><p>one</p><p>two</p><p>three</p></pre>').text).toBe('one\ntwo\nthree');
  });

  it('makes a <br> a newline, and keeps a line that is empty but for its <br>', () => {
    expect(flattened('<pre>a<br>b<br><br>c</pre>').text).toBe('a\nb\n\nc');
    expect(flattened('<pre><div>a</div><div><br></div><div>b</div></pre>').text).toBe('a\n\nb');
    // A <br> that ends a line's text ends only that line.
    expect(flattened('<pre><div>a<br></div><div>b</div></pre>').text).toBe('a\nb');
  });

  it('sets apart inline lines a page’s stylesheet showed as lines, and keeps their token spans', () => {
    const { html, text } = flattened('<pre><code><span class="gatsby-highlight-code-line">  <span class="token comment">// count</span></span>'
      + '<span class="gatsby-highlight-code-line">  <span class="token keyword">const</span> count = 0;</span>\n  return count;</code></pre>');
    expect(text).toBe('  // count\n  const count = 0;\n  return count;');
    expect(html).toContain('<span class="token keyword">const</span>');
    expect(flattened('<pre><span class="line">a</span><span class="line highlighted">b</span><span class="token-line">c</span></pre>').text).toBe('a\nb\nc');
  });

  it('never doubles a newline already there, and changes nothing in a block of text', () => {
    // Shiki's lines are spans with a newline between them.
    expect(flattened('<pre><code><span class="line">a</span>\n<span class="line">b</span>\n</code></pre>'))
      .toEqual({ changed: false, html: '<pre><code><span class="line">a</span>\n<span class="line">b</span>\n</code></pre>', text: 'a\nb\n' });
    expect(flattened('<pre><div>a\n</div><div>b</div></pre>').text).toBe('a\nb');
    expect(flattened('<pre><code>let x = 1;\nlet y = 2;</code></pre>').changed).toBe(false);
  });

  it('does not take a class that only begins with "line" or ends in it within a word for a line', () => {
    expect(flattened('<pre><span class="line-number">1</span><span class="underline">x</span><span class="inline">y</span></pre>'))
      .toMatchObject({ changed: false, text: '1xy' });
  });

  it('leaves a table inside a <pre> (a gutter of line numbers) and markup outside code blocks alone', () => {
    const gutter = '<pre><table><tbody><tr><td>1</td><td>a</td></tr><tr><td>2</td><td>b</td></tr></tbody></table></pre>';
    expect(flattened(gutter)).toMatchObject({ changed: false, html: gutter });
    const root = body('<div><p>a<br>b</p></div><pre>c</pre>');
    expect(codeLinesAsText(root)).toBe(false);
    expect(root.innerHTML).toBe('<div><p>a<br>b</p></div><pre>c</pre>');
  });

  it('does a <pre> inside a <pre> as part of the outer one', () => {
    expect(flattened('<pre>a<pre>b</pre>c</pre>').text).toBe('a\nb\nc');
  });
});

describe('mayHoldCodeLines', () => {
  it('says so for a <pre> holding a <br>, a block or a line’s class, and not for plain code or markup outside a <pre>', () => {
    expect(mayHoldCodeLines('<p>x</p><pre><code>a<br>b</code></pre>')).toBe(true);
    expect(mayHoldCodeLines('<pre class="x"><div>a</div></pre>')).toBe(true);
    expect(mayHoldCodeLines('<PRE><span class="cm-line">a</span></PRE>')).toBe(true);
    expect(mayHoldCodeLines('<pre><code>a\nb</code></pre><div><br></div><span class="line">x</span>')).toBe(false);
    expect(mayHoldCodeLines('<pre><code><span class="token">a</span></code></pre><p>b<br>c</p><pre>d</pre>')).toBe(false);
    expect(mayHoldCodeLines('<p>no code</p>')).toBe(false);
    expect(mayHoldCodeLines('<preface><br></preface>')).toBe(false);
  });
});
