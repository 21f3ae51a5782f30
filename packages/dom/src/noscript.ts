import { nextMatch } from './markup-scans.ts';

/** Elements whose content the parser reads as text up to their own end tag. */
const RAW_TEXT = /<(iframe|textarea|xmp|noembed|noframes|title)(?=[\s/>])/gi;

/**
 * Every `<noscript>` bounded as the browser the page was written for bounds it. A browser runs scripts, and reads a
 * `<noscript>` as text that ends at its first `</noscript>`; parsed with scripting off, as here, its content is markup:
 * - an element read as raw text that opens inside it and does not close there takes the rest of the page as its text:
 *   a tag manager's `<noscript><iframe … /></noscript>`, written self-closing as JSX does (HTML closes no iframe that
 *   way), turned a whole page into one iframe's text, and the page read as empty. Such an element is closed where the
 *   `<noscript>` ends;
 * - one in the page's head, where only links, styles and metadata may stand, is closed by its first other element,
 *   which the parser moves into the body with the rest: a "JavaScript is turned off" notice, a tracking pixel. A
 *   browser shows nothing of it, so it goes whole.
 * A scan that reads each part of the page once, as extraction's cuts of style and script elements.
 */
export function boundNoscripts(html: string): string {
  const tagEnd = nextMatch(html, />/g);
  const noscriptEnd = nextMatch(html, /<\/noscript\s*>/gi);
  const bodyStart = html.search(/<body(?=[\s/>])/i);
  const open = /<noscript(?=[\s/>])/gi;
  let out = '';
  let copied = 0;
  for (let found = open.exec(html); found; found = open.exec(html)) {
    const gt = tagEnd(found.index + 9);
    const end = gt && noscriptEnd(gt.end);
    if (!end) break; // no `</noscript>` from here on: the browser would read the rest as the element's text too
    open.lastIndex = end.end;
    if (end.end <= bodyStart) {
      out += html.slice(copied, found.index);
      copied = end.end;
      continue;
    }
    const unclosed = unclosedRawText(html.slice(gt.end, end.index));
    if (!unclosed) continue;
    out += `${html.slice(copied, end.index)}</${unclosed}>`;
    copied = end.index;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** The raw-text element left open at the end of `markup`, if any: once one opens, the rest is its text until it ends. */
function unclosedRawText(markup: string): string | null {
  RAW_TEXT.lastIndex = 0;
  for (let found = RAW_TEXT.exec(markup); found; found = RAW_TEXT.exec(markup)) {
    const name = found[1]!.toLowerCase();
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = RAW_TEXT.lastIndex;
    if (!close.exec(markup)) return name;
    RAW_TEXT.lastIndex = close.lastIndex;
  }
  return null;
}
