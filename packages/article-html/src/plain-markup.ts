import { parseLightBodyIf, windowFor, type LightBody, type ParsedElement } from '@folio/dom';
import { parseBase, safeUrl, urlKind } from './url-policy.ts';

/**
 * Article markup plain enough that DOMPurify, under the sanitiser's rules (sanitize.ts), would change nothing in it
 * but its addresses. Every element here is one DOMPurify's HTML profile keeps and sanitize.ts does not forbid or
 * rewrite (no `input` but a disabled checkbox, no `details`, whose `open` the sanitiser sets); every attribute one it
 * keeps. Markup markdown-it writes (conversion/src/markdown.ts) is all in here, and so is most article HTML that users send.
 */
const GLOBAL_ATTRIBUTES = ['class', 'title', 'lang', 'dir', 'id', 'role'];
/** DOMPurify's ALLOW_ARIA_ATTR (on by default) keeps these on any element. */
const ARIA_ATTRIBUTE = /^aria-[\-\w]+$/;
const PLAIN_MARKUP: Record<string, readonly string[]> = {
  p: [], div: [], span: [], section: [], article: [], header: [], footer: [], main: [], aside: [], nav: [],
  h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], blockquote: ['cite'], pre: [], code: [], kbd: [], samp: [], var: [],
  em: [], strong: [], b: [], i: [], u: [], s: [], del: ['cite', 'datetime'], ins: ['cite', 'datetime'], mark: [],
  small: [], sub: [], sup: [], abbr: [], cite: [], q: ['cite'], dfn: [], time: ['datetime'], br: [], hr: [], wbr: [],
  ul: [], ol: ['start', 'reversed'], li: ['value'], dl: [], dt: [], dd: [], figure: [], figcaption: [], address: [],
  a: ['href', 'hreflang', 'rel'], img: ['src', 'alt', 'width', 'height', 'decoding'], picture: [],
  table: [], caption: [], thead: [], tbody: [], tfoot: [], tr: [], colgroup: ['span'], col: ['span'],
  th: ['align', 'colspan', 'rowspan', 'scope'], td: ['align', 'colspan', 'rowspan'],
  input: ['checked', 'disabled', 'type'],
};

/** DOMPurify's own value checks (its SAFE_FOR_XML breakout and self-closing probes), applied to every attribute. */
const ATTR_VALUE_BREAKOUT = /((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i;
const SELF_CLOSING_TAG = /\/>/i;
/** DOMPurify's check of attributes that are not URI-safe (sanitize.ts sets ALLOWED_URI_REGEXP to this). */
const IS_ALLOWED_URI = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
const ATTR_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;
const URI_SAFE = new Set(['alt', 'class', 'title']);

/**
 * DOMPurify's SANITIZE_DOM rule (on by default): an `id` that names a property of a document or of a form (`cookie`,
 * `location`, `submit`…) is removed, since it would shadow that property for a script. DOMPurify asks its own jsdom
 * window's document and a form made there; any jsdom document answers alike (the properties are its prototypes'),
 * so one made for this is asked the same question.
 */
let probe: { document: Document; form: HTMLFormElement } | undefined;
function clobbers(value: string): boolean {
  probe ??= (() => {
    const { document } = windowFor('');
    return { document, form: document.createElement('form') };
  })();
  return value in probe.document || value in probe.form;
}

/**
 * Sanitised markup without the sanitiser's cost, where that is provably the same result: the markup is parsed once,
 * by parse5 (the parser of DOMPurify's jsdom) in the way DOMPurify parses a string, and when every element and attribute in it is plain (`PLAIN_MARKUP`,
 * no comments) and every value passes DOMPurify's own value checks, the only thing DOMPurify would still do is judge
 * the addresses, which is done here by the function its hook calls (`safeUrl`, as `judgeAddress` does) on the same
 * parsed values, and an `id` by its SANITIZE_DOM rule (`clobbers`). Anything else (a script, a style, an event handler,
 * an id that would shadow a document property, a data- attribute, SVG, a value with spaces around it…) returns null, and the caller runs DOMPurify as before. A property test holds both paths to
 * identical markup and text over generated HTML and Markdown.
 *
 * Returns the parsed body: the light tree for the text, and the markup (`html()`).
 */
export function plainMarkupBody(html: string, baseUrl: string | null = null): LightBody | null {
  const base = parseBase(baseUrl);
  const body = parseLightBodyIf(html, (element) => isPlain(element, base), { asDomPurify: true });
  // Text without a single '<' holds no markup, and DOMPurify hands it back as it came: so does this.
  return body && !html.includes('<') ? { body: body.body, html: () => html } : body;
}

function isPlain(element: ParsedElement, base: URL | null): boolean {
  const allowed = PLAIN_MARKUP[element.tagName];
  if (!allowed) return false;
  if (element.tagName === 'input') {
    // Only a disabled checkbox (a task list's) stays of an input, exactly as the sanitiser leaves it.
    const type = element.attrs.find((a) => a.name === 'type')?.value;
    if (type !== 'checkbox' || !element.attrs.some((a) => a.name === 'disabled' && a.value === '')) return false;
  }
  for (let i = 0; i < element.attrs.length; i++) {
    const attr = element.attrs[i]!;
    if (!allowed.includes(attr.name) && !GLOBAL_ATTRIBUTES.includes(attr.name) && !ARIA_ATTRIBUTE.test(attr.name)) return false;
    if (attr.name === 'id' && clobbers(attr.value)) return false;
    // DOMPurify trims values before judging them; values that need it take its path.
    if (attr.value !== attr.value.trim()) return false;
    const kind = urlKind(attr.name, element.tagName);
    if (kind !== null) {
      const url = safeUrl(attr.value, kind, base);
      if (url === null) {
        element.attrs.splice(i--, 1);
        continue;
      }
      attr.value = url;
    }
    if (ATTR_VALUE_BREAKOUT.test(attr.value) || SELF_CLOSING_TAG.test(attr.value)) return false;
    if (URI_SAFE.has(attr.name) || attr.value === '') continue;
    const isDataImage = attr.name === 'src' && element.tagName === 'img' && attr.value.startsWith('data:');
    if (!isDataImage && !IS_ALLOWED_URI.test(attr.value.replace(ATTR_WHITESPACE, ''))) return false;
  }
  return true;
}
