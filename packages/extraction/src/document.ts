import { parseHtmlDocument } from '@folio/dom';

/**
 * Parses a page into an inert DOM: scripts never run (a DOMParser document has scripting disabled), nothing is
 * fetched (see @folio/dom), and the page's stylesheets are not parsed at all. Readability reads no computed style
 * (only inline `style` and `hidden`), so stylesheets cost time for nothing — and jsdom throws on some real-world
 * CSS while parsing (a `calc()` it cannot read), which must not fail a conversion.
 */
export function parseDocument(html: string, url: string | null): Document {
  try {
    return parseHtmlDocument(removeScripts(removeStyleElements(html)), url);
  } catch {
    // The careful removal leaves a `<style>` it could not prove safe to cut, or inline CSS makes jsdom throw:
    // turn every style element into an inert one and drop inline styles, then parse again.
    const document = parseHtmlDocument(neutraliseStyles(html), url);
    for (const element of Array.from(document.querySelectorAll(INERT_STYLE))) element.remove();
    return document;
  }
}

/**
 * `<style>…</style>` blocks, cut only where the cut is certain: the CSS holds no `</` (so a `<style` written
 * inside a script string or a comment cannot make the cut run on into the page's content). That is: from a
 * `<style` tag, the first `</` after the tag's end must open `</style>`.
 *
 * Both cuts are scans that look for each end once, not regular expressions: a pattern that looks for an element's
 * end from each of its starts reads the rest of the page once a start, and a page of 30,000 unclosed `<style>` tags
 * (250 KB) took 12 s, a 10 MB page hours.
 */
export function removeStyleElements(html: string): string {
  const tagEnd = new NextIndex(html, '>');
  const closing = new NextIndex(html, '</');
  const closes = new Map<number, number>();
  const open = /<style(?=[\s/>])/gi;
  let out = '';
  let copied = 0;
  for (let found = open.exec(html); found; found = open.exec(html)) {
    const gt = tagEnd.from(found.index + 6);
    const lt = gt < 0 ? -1 : closing.from(gt + 1);
    if (lt < 0) break; // no `</` from here on: no later style element can be cut either
    let end = closes.get(lt);
    if (end === undefined) closes.set(lt, (end = endOfMatchAt(STYLE_CLOSE, html, lt)));
    if (end < 0) continue;
    out += html.slice(copied, found.index);
    copied = end;
    open.lastIndex = end;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

const STYLE_CLOSE = /<\/style\s*>/iy;

/**
 * `<script>` elements other than JSON-LD (which carries metadata): nothing runs them, Readability drops them, and
 * they are a fifth of a news page's bytes, all of which jsdom would tokenise. The cut follows the HTML rule (a
 * script ends at the first `</script>`, whatever its JavaScript says), and comments are matched first and kept,
 * so a `<script` written inside a comment never starts a cut. An element left open to the end of the page is kept
 * (the parser makes it inert text of the script or comment).
 */
export function removeScripts(html: string): string {
  const commentEnd = new NextIndex(html, '-->');
  const tagEnd = new NextIndex(html, '>');
  const scriptEnd = new NextMatch(html, /<\/script\s*>/gi);
  const start = /<!--|<script\b/gi;
  let out = '';
  let copied = 0;
  for (let found = start.exec(html); found; found = start.exec(html)) {
    const at = found.index;
    if (found[0] === '<!--') {
      const end = commentEnd.from(at + 4);
      if (end >= 0) start.lastIndex = end + 3; // a comment is kept whole: nothing in it starts a cut
      continue;
    }
    const gt = tagEnd.from(at + 7);
    const close = gt < 0 ? null : scriptEnd.from(gt + 1);
    if (!close) continue;
    start.lastIndex = close.end;
    if (/ld\+json/i.test(html.slice(at + 7, gt))) continue;
    out += html.slice(copied, at);
    copied = close.end;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** The end of `sticky`'s match at `at`, or -1. */
function endOfMatchAt(sticky: RegExp, text: string, at: number): number {
  sticky.lastIndex = at;
  return sticky.test(text) ? sticky.lastIndex : -1;
}

/**
 * The first index of `needle` at or after a position, for positions asked in increasing order: an answer serves
 * every position up to it, so the text is read once however many times it is asked.
 */
class NextIndex {
  private found: number | undefined;
  private readonly text: string;
  private readonly needle: string;
  constructor(text: string, needle: string) {
    this.text = text;
    this.needle = needle;
  }

  from(position: number): number {
    if (this.found === undefined || (this.found !== -1 && this.found < position)) this.found = this.text.indexOf(this.needle, position);
    return this.found;
  }
}

/** As `NextIndex`, for a pattern (global): its first match at or after a position, or null. */
class NextMatch {
  private found: { index: number; end: number } | null | undefined;
  private readonly text: string;
  private readonly pattern: RegExp;
  constructor(text: string, pattern: RegExp) {
    this.text = text;
    this.pattern = pattern;
  }

  from(position: number): { index: number; end: number } | null {
    if (this.found === undefined || (this.found !== null && this.found.index < position)) {
      this.pattern.lastIndex = position;
      const match = this.pattern.exec(this.text);
      this.found = match ? { index: match.index, end: match.index + match[0].length } : null;
    }
    return this.found;
  }
}

const INERT_STYLE = 'folio-inert-style';

function neutraliseStyles(html: string): string {
  return html
    .replace(/<(\/?)style(?=[\s/>])/gi, `<$1${INERT_STYLE}`)
    .replace(/\sstyle\s*=\s*(?:"[^"]*"|'[^']*')/gi, '');
}
