/**
 * Guards against markup nested so deeply that parsing it is slow (jsdom's tree building is quadratic in depth:
 * 10,000 levels took 30 s) or overflows the stack (serialising, sanitising and extraction recurse). Real articles
 * nest a few dozen levels; markup beyond MAX_NESTING is flattened to paragraphs of its text instead, once, before
 * anything parses it, so odd HTML degrades rather than fails.
 *
 * Both functions are single linear passes over the string with no backtracking regular expressions.
 */
export const MAX_NESTING = 256;

/** Elements that never hold children. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Elements whose end tag is optional: a run of them closes itself rather than nesting. */
const SELF_CLOSING = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'rb', 'rt', 'rp', 'rtc']);
/**
 * What an optional-end-tag element's start tag cannot close an earlier one of its kind across (the parser's scopes):
 * a new `<li>` closes the previous item of its own list, not of the list around it.
 */
const TABLE_SCOPE = ['table', 'td', 'th', 'caption', 'template', 'object', 'applet', 'marquee', 'button'];
const SCOPES: Record<string, Set<string>> = {
  li: new Set([...TABLE_SCOPE, 'ul', 'ol', 'menu']),
  dt: new Set([...TABLE_SCOPE, 'dl']),
  dd: new Set([...TABLE_SCOPE, 'dl']),
  option: new Set([...TABLE_SCOPE, 'select', 'datalist', 'optgroup']),
};
const DEFAULT_SCOPE = new Set(TABLE_SCOPE);
const scopeOf = (name: string) => SCOPES[name] ?? DEFAULT_SCOPE;

/** Elements whose content is text, not markup. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);
/** Elements that start a new paragraph when markup is flattened. */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary',
  'table', 'tr', 'ul',
]);

type Token = { kind: 'text'; text: string } | { kind: 'tag'; name: string; closing: boolean; selfClosed: boolean };

const TAG_NAME = /\/?[A-Za-z][A-Za-z0-9:-]*/y;

function* tokens(html: string): Generator<Token> {
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      yield { kind: 'text', text: html.slice(at) };
      return;
    }
    if (html.startsWith('<!--', open)) {
      if (open > at) yield { kind: 'text', text: html.slice(at, open) };
      const end = html.indexOf('-->', open + 4);
      if (end < 0) return;
      at = end + 3;
      continue;
    }
    TAG_NAME.lastIndex = open + 1;
    const name = TAG_NAME.exec(html);
    if (name === null) {
      // '<!doctype', '<?', or a '<' that is just text
      const end = html[open + 1] === '!' || html[open + 1] === '?' ? html.indexOf('>', open) : -1;
      yield { kind: 'text', text: html.slice(at, end < 0 ? open + 1 : open) };
      at = end < 0 ? open + 1 : end + 1;
      continue;
    }
    const end = html.indexOf('>', open);
    if (end < 0) {
      yield { kind: 'text', text: html.slice(at) };
      return;
    }
    if (open > at) yield { kind: 'text', text: html.slice(at, open) };
    const closing = name[0].startsWith('/');
    const tagName = (closing ? name[0].slice(1) : name[0]).toLowerCase();
    yield { kind: 'tag', name: tagName, closing, selfClosed: html[end - 1] === '/' };
    at = end + 1;
    if (!closing && RAW_TEXT.has(tagName)) {
      const close = new RegExp(`</${tagName}`, 'gi');
      close.lastIndex = at;
      at = close.exec(html)?.index ?? html.length;
    }
  }
}

/**
 * An estimate of the deepest nesting of elements, as a parser would build them: an end tag closes the element it
 * names and whatever is still open inside it (so an unclosed `<b>` in a paragraph ends with the paragraph), an end
 * tag for nothing open is ignored, and an optional-end-tag element (`p`, `li`, `td`…) is closed by the next of its
 * kind. Those and void elements do not count toward the depth. Counting stops once the depth passes `stopAbove`,
 * which also bounds the work on hostile markup.
 */
export function estimateNestingDepth(html: string, stopAbove = Infinity): number {
  const open: string[] = [];
  let depth = 0;
  let deepest = 0;
  const closeFrom = (at: number) => {
    for (let i = at; i < open.length; i++) if (!SELF_CLOSING.has(open[i]!)) depth--;
    open.length = at;
  };
  for (const token of tokens(html)) {
    if (token.kind !== 'tag' || VOID.has(token.name)) continue;
    const optional = SELF_CLOSING.has(token.name);
    if (token.closing || optional) {
      const at = open.lastIndexOf(token.name);
      if (at >= 0 && (token.closing || !open.slice(at + 1).some((name) => scopeOf(token.name).has(name)))) closeFrom(at);
    }
    if (token.closing || token.selfClosed) continue;
    open.push(token.name);
    if (optional) continue;
    deepest = Math.max(deepest, ++depth);
    if (deepest > stopAbove) return deepest;
  }
  return deepest;
}

/** The markup's text as flat paragraphs: entities are kept for the parser to decode, every tag is dropped. */
export function flattenMarkup(html: string): string {
  const parts: string[] = ['<p>'];
  let atBoundary = true;
  for (const token of tokens(html)) {
    if (token.kind === 'text') {
      if (token.text.trim() === '') {
        if (!atBoundary) parts.push(' ');
        continue;
      }
      parts.push(token.text.replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
      atBoundary = false;
    } else if (BLOCK.has(token.name) && !atBoundary) {
      parts.push('</p><p>');
      atBoundary = true;
    } else if ((token.name === 'td' || token.name === 'th') && !atBoundary) {
      parts.push(' ');
    }
  }
  if (atBoundary && parts.length > 1) parts.pop();
  parts.push('</p>');
  return parts.join('');
}

/** The markup as it may be parsed: itself, or flattened when it nests beyond MAX_NESTING. */
export function withinNesting(html: string): string {
  return estimateNestingDepth(html, MAX_NESTING) > MAX_NESTING ? flattenMarkup(html) : html;
}
