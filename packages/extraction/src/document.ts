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
 * inside a script string or a comment cannot make the cut run on into the page's content).
 */
const STYLE_ELEMENT = /<style(?=[\s/>])[^>]*>[^<]*(?:<(?!\/)[^<]*)*<\/style\s*>/gi;

export function removeStyleElements(html: string): string {
  return html.replace(STYLE_ELEMENT, '');
}

/**
 * `<script>` elements other than JSON-LD (which carries metadata): nothing runs them, Readability drops them, and
 * they are a fifth of a news page's bytes, all of which jsdom would tokenise. The cut follows the HTML rule (a
 * script ends at the first `</script`, whatever its JavaScript says), and comments are matched first and kept,
 * so a `<script` written inside a comment never starts a cut.
 */
const SCRIPT_ELEMENT = /<!--[\s\S]*?-->|<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi;

export function removeScripts(html: string): string {
  return html.replace(SCRIPT_ELEMENT, (match, attributes: string | undefined) =>
    attributes === undefined || /ld\+json/i.test(attributes) ? match : '',
  );
}

const INERT_STYLE = 'folio-inert-style';

function neutraliseStyles(html: string): string {
  return html
    .replace(/<(\/?)style(?=[\s/>])/gi, `<$1${INERT_STYLE}`)
    .replace(/\sstyle\s*=\s*(?:"[^"]*"|'[^']*')/gi, '');
}
