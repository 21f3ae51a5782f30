import { parseLightBodyIf, type LightBody, type ParsedElement } from '@folio/dom';
import { parseBase, safeUrl } from './url-policy.ts';

/**
 * The elements and attributes marked writes for GitHub-flavoured Markdown (and nothing else), each one DOMPurify keeps
 * under the sanitiser's rules (sanitize.ts). Markup that marked wrote itself from Markdown without raw HTML holds only
 * these; its text is escaped by marked.
 */
const MARKED_MARKUP: Record<string, readonly string[]> = {
  p: [], blockquote: [], pre: [], code: ['class'], hr: [], br: [],
  h1: [], h2: [], h3: [], h4: [], h5: [], h6: [],
  ul: [], ol: ['start'], li: [], input: ['checked', 'disabled', 'type'],
  em: [], strong: [], del: [], a: ['href', 'title'], img: ['src', 'alt', 'title'],
  table: [], thead: [], tbody: [], tr: [], th: ['align'], td: ['align'],
};

/** What DOMPurify (SAFE_FOR_XML) refuses in an attribute value, whatever the attribute. */
const XML_UNSAFE = /((--!?|])>)|<\/(style|title|textarea)/i;

/**
 * Rendered Markdown made safe without the sanitiser's cost, when that is provably the same: the markup is parsed
 * once (parse5, the parser DOMPurify's jsdom uses), and if every element and attribute in it is one marked writes
 * (`MARKED_MARKUP`) — so the Markdown held no raw HTML that produced anything else — the only judgement DOMPurify
 * would still make is on addresses, and that is made here by the same function it calls (`safeUrl`, as
 * `judgeAddress` does), on the same parsed values. Anything else (raw HTML, a comment, an attribute marked never
 * writes, a value DOMPurify would refuse) returns null, and the caller runs DOMPurify as before. Tests hold the
 * two paths to identical output over generated Markdown.
 *
 * Returns the parsed body: the light tree for the text, and the markup (`html()`).
 */
export function renderedMarkdownBody(html: string, baseUrl: string | null = null): LightBody | null {
  const base = parseBase(baseUrl);
  return parseLightBodyIf(html, (element) => judge(element, base));
}

function judge(element: ParsedElement, base: URL | null): boolean {
  const allowed = MARKED_MARKUP[element.tagName];
  if (!allowed) return false;
  for (const attr of element.attrs) {
    if (!allowed.includes(attr.name) || XML_UNSAFE.test(attr.value)) return false;
  }
  if (element.tagName === 'input') {
    // marked writes disabled task-list checkboxes only (the sanitiser keeps nothing else of an input).
    const type = element.attrs.find((a) => a.name === 'type')?.value;
    return type === 'checkbox' && element.attrs.some((a) => a.name === 'disabled');
  }
  const addressed = element.tagName === 'a' ? 'href' : element.tagName === 'img' ? 'src' : null;
  if (!addressed) return true;
  const at = element.attrs.findIndex((a) => a.name === addressed);
  if (at < 0) return true;
  const url = safeUrl(element.attrs[at]!.value, addressed === 'href' ? 'link' : 'image', base);
  if (url === null) element.attrs.splice(at, 1);
  else element.attrs[at]!.value = url;
  return true;
}
