import { describe, expect, it } from 'vitest';
import { parseDocument, removeScripts, removeStyleElements } from './document.ts';

// The patterns the scans replaced: the reference for what is cut (they read the page once a start, so only small
// inputs are given to them).
const STYLE_ELEMENT = /<style(?=[\s/>])[^>]*>[^<]*(?:<(?!\/)[^<]*)*<\/style\s*>/gi;
const SCRIPT_ELEMENT = /<!--[\s\S]*?-->|<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi;
const byPattern = {
  style: (html: string) => html.replace(STYLE_ELEMENT, ''),
  scripts: (html: string) => html.replace(SCRIPT_ELEMENT, (match, attributes: string | undefined) => (attributes === undefined || /ld\+json/i.test(attributes) ? match : '')),
};

const PIECES = [
  '<style>', '<STYLE media="x">', '<style/>', '<styles>', '</style>', '</STYLE \n>', '</style', '</styles>', '<script>',
  '<SCRIPT type="application/ld+json">', '<script src=a>', '<scripts>', '</script>', '</SCRIPT\t>', '</script', '</scripts>',
  '<!--', '-->', '<!-->', '<', '>', '</', '/', ' ', '\n', 'x', 'a{}', 'if(a<b)', '<p>', '</p>', '"', '-',
];

/** A random page of those pieces, from a seeded generator so that a failure can be replayed. */
function pages(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 24) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(''));
}

describe('cutting style and script elements from a page', () => {
  it('cuts exactly what the patterns cut, on pages of every shape', () => {
    for (const page of pages(20_000)) {
      expect(removeStyleElements(page), JSON.stringify(page)).toBe(byPattern.style(page));
      expect(removeScripts(page), JSON.stringify(page)).toBe(byPattern.scripts(page));
    }
  });

  it('keeps JSON-LD, comments whole, and what is left open', () => {
    const page = '<p>a</p><style>p{}</style><script type="application/ld+json">{}</script><!-- <script>x</script> --><script>y()</script><p>b</p><style>never closed';
    expect(removeScripts(removeStyleElements(page))).toBe('<p>a</p><script type="application/ld+json">{}</script><!-- <script>x</script> --><p>b</p><style>never closed');
  });

  it('reads a page of elements that never end once, not once an element', () => {
    // Each of these held extraction for seconds at 250 KB, and for hours at the 10 MB a fetched page may have.
    const tail = '<article><p>the words after them</p></article>';
    for (const page of ['<style>E'.repeat(300_000), '<script>'.repeat(300_000), '<!--'.repeat(300_000), `<style>${'</style '.repeat(300_000)}`]) {
      expect(removeStyleElements(page + tail)).toContain('the words after them');
      expect(removeScripts(page + tail)).toContain('the words after them');
    }
  });
});

describe('a page whose <noscript> a browser would bound otherwise than a parser without scripts (@folio/dom boundNoscripts)', () => {
  const TAG_MANAGER = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none" /></noscript>';
  const BODY = '<main><h1>Your fastest path to production</h1><p>Deploy your code: connect the repository and it runs.</p></main>';

  it('does not let an iframe written self-closing take the rest of the page as its text', () => {
    const document = parseDocument(`<!DOCTYPE html><html><head><title>Render</title></head><body>${TAG_MANAGER}${BODY}</body></html>`, null);
    expect(document.querySelector('main h1')?.textContent).toBe('Your fastest path to production');
    expect(document.querySelector('iframe')?.textContent).toBe('');
  });

  it("leaves out a head's notice, which the parser would move into the body", () => {
    const notice = '<noscript><br /><b>Please note that Javascript is turned off in your web browser.</b></noscript>';
    const document = parseDocument(`<!DOCTYPE html><html><head><title>Render</title>${notice}</head><body>${BODY}</body></html>`, null);
    expect(document.body.textContent).toContain('Your fastest path to production');
    expect(document.body.textContent).not.toContain('Javascript is turned off');
  });
});
