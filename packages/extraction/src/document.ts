import { boundNoscripts, nextMatch, parseHtmlDocument } from '@folio/dom';

/**
 * Parses a page into an inert DOM: scripts never run (a DOMParser document has scripting disabled), nothing is
 * fetched (see @folio/dom), and the page's stylesheets are not parsed at all. Readability reads no computed style
 * (only inline `style` and `hidden`), so stylesheets cost time for nothing — and jsdom throws on some real-world
 * CSS while parsing (a `calc()` it cannot read), which must not fail a conversion.
 */
export function parseDocument(page: string, url: string | null): Document {
  return documentParser(page, url)();
}

/**
 * The parses of one page (`parseDocument`), as many as asked: extraction parses a page again for each second look,
 * since Readability rewrites the document it reads, and the markup is made ready for them once — its `<noscript>`s
 * bounded as a browser bounds them, its style and script elements cut.
 */
export function documentParser(page: string, url: string | null): () => Document {
  const html = boundNoscripts(page);
  const inert = removeScripts(removeStyleElements(html));
  return () => {
    try {
      return parseHtmlDocument(inert, url);
    } catch {
      // The careful removal leaves a `<style>` it could not prove safe to cut, or inline CSS makes jsdom throw:
      // turn every style element into an inert one and drop inline styles, then parse again.
      const document = parseHtmlDocument(neutraliseStyles(html), url);
      for (const element of Array.from(document.querySelectorAll(INERT_STYLE))) element.remove();
      return document;
    }
  };
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
  const tagEnd = nextMatch(html, />/g);
  // The first `</` after a tag's end, and whether it closes the style element.
  const closing = nextMatch(html, /<\/(?:style\s*>)?/gi);
  const open = /<style(?=[\s/>])/gi;
  let out = '';
  let copied = 0;
  for (let found = open.exec(html); found; found = open.exec(html)) {
    const gt = tagEnd(found.index + 6);
    const close = gt && closing(gt.end);
    if (!close) break; // no `</` from here on: no later style element can be cut either
    if (close.end - close.index === 2) continue; // it closes something else
    out += html.slice(copied, found.index);
    copied = close.end;
    open.lastIndex = close.end;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/**
 * `<script>` elements other than JSON-LD (which carries metadata): nothing runs them, Readability drops them, and
 * they are a fifth of a news page's bytes, all of which jsdom would tokenise. The cut follows the HTML rule (a
 * script ends at the first `</script>`, whatever its JavaScript says), and comments are matched first and kept,
 * so a `<script` written inside a comment never starts a cut. An element left open to the end of the page is kept
 * (the parser makes it inert text of the script or comment).
 */
export function removeScripts(html: string): string {
  const commentEnd = nextMatch(html, /-->/g);
  const tagEnd = nextMatch(html, />/g);
  const scriptEnd = nextMatch(html, /<\/script\s*>/gi);
  const start = /<!--|<script\b/gi;
  let out = '';
  let copied = 0;
  for (let found = start.exec(html); found; found = start.exec(html)) {
    const at = found.index;
    if (found[0] === '<!--') {
      const end = commentEnd(at + 4);
      if (end) start.lastIndex = end.end; // a comment is kept whole: nothing in it starts a cut
      continue;
    }
    const gt = tagEnd(at + 7);
    const close = gt && scriptEnd(gt.end);
    if (!close) continue;
    start.lastIndex = close.end;
    if (/ld\+json/i.test(html.slice(at + 7, gt.index))) continue;
    out += html.slice(copied, at);
    copied = close.end;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

const INERT_STYLE = 'folio-inert-style';

function neutraliseStyles(html: string): string {
  return html
    .replace(/<(\/?)style(?=[\s/>])/gi, `<$1${INERT_STYLE}`)
    .replace(/\sstyle\s*=\s*(?:"[^"]*"|'[^']*')/gi, '');
}
