import createDOMPurify, { type Config, type DOMPurify, type UponSanitizeAttributeHookEvent } from 'dompurify';
import { DataImageStash } from './data-image-stash.ts';
import { parseBase, safeSrcset, safeUrl, urlKind } from './url-policy.ts';
import { windowFor, windowOf } from '@folio/dom';

/**
 * What survives of untrusted article HTML. Built on DOMPurify's own allow-lists for HTML, SVG and MathML (which also
 * undo the namespace-confusion mutation-XSS tricks), narrowed for article content:
 * - nothing that runs, submits, embeds or navigates: no script, no `on*` handlers, no forms or controls (a task-list
 *   checkbox stays, disabled), no iframe/object/embed/frame, no meta/base/link (DOMPurify never allows those);
 * - no CSS from the content at all: `<style>` elements and `style` attributes both go. Parsing CSS to keep the
 *   harmless part is a second sanitiser to get right (`@import`, `url()`, `expression()`, `image-set()`…); the
 *   service's stylesheet and the user's `css_url` are the only styling, which is what a printable article wants.
 *   SVG keeps its presentation attributes (`fill`, `stroke`…), so charts keep their colours;
 * - no SVG animation (`<set>`/`<animate*>` can rewrite an `href` after sanitising) and no SVG filters (`feImage`
 *   loads what it likes);
 * - no `data-*` attributes (nothing runs to read them), no `popover`/`hidden`-style attributes that would hide text
 *   in print, no `loading=lazy` (a lazy image may never load while Chromium prints);
 * - MathML keeps its `alttext` (the formula as text, used by the Markdown output) and loses its `<annotation>`
 *   together with the annotation's text: the TeX source would otherwise print next to the rendered formula;
 * - addresses pass the URL policy in `url-policy.ts` and become absolute against the base URL.
 */
const CONFIG: Config = {
  USE_PROFILES: { html: true, svg: true, mathMl: true },
  FORBID_TAGS: [
    'style', 'script', 'noscript', 'template', 'slot', 'shadow', 'content', 'element', 'decorator',
    'form', 'button', 'select', 'option', 'optgroup', 'datalist', 'textarea', 'output', 'dialog', 'menuitem',
    'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'fencedframe',
    'meta', 'base', 'link', 'marquee', 'blink',
    'animate', 'animatecolor', 'animatemotion', 'animatetransform', 'set', 'mpath', 'use', 'foreignobject',
  ],
  FORBID_ATTR: [
    'style', 'is', 'action', 'formaction', 'method', 'enctype', 'ping', 'srcdoc', 'target',
    'popover', 'popovertarget', 'popovertargetaction', 'command', 'commandfor', 'hidden', 'inert',
    'nonce', 'integrity', 'crossorigin', 'loading', 'autoplay', 'tabindex', 'usemap', 'draggable',
  ],
  ADD_ATTR: ['alttext'],
  ADD_URI_SAFE_ATTR: ['alttext'],
  ADD_FORBID_CONTENTS: ['annotation'],
  ALLOW_DATA_ATTR: false,
  // DOMPurify's own check, kept as a second line behind `url-policy.ts`: http(s), mailto, tel, or no scheme at all.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  KEEP_CONTENT: true,
};

/**
 * The base and the placeholder lookup of the sanitisation under way. DOMPurify's hooks belong to the instance, not to
 * a call, so the call's state is set here for the duration of one synchronous `sanitize()`; JavaScript cannot
 * interleave two.
 */
let currentBase: URL | null = null;
let currentRestore: ((value: string) => string) | null = null;

function judgeAddress(node: Element, event: UponSanitizeAttributeHookEvent): void {
  if (currentRestore) event.attrValue = currentRestore(event.attrValue);
  const tag = node.nodeName.toLowerCase();
  if (event.attrName === 'srcset') {
    const srcset = safeSrcset(event.attrValue, currentBase);
    if (srcset === null) event.keepAttr = false;
    else event.attrValue = srcset;
    return;
  }
  const kind = urlKind(event.attrName, tag);
  if (kind === null) return;
  const url = safeUrl(event.attrValue, kind, currentBase);
  if (url === null) event.keepAttr = false;
  else event.attrValue = url;
}

/** Elements that stay but must not act: a checkbox that cannot submit, details that print open. */
function settle(node: Element): void {
  switch (node.nodeName) {
    case 'INPUT':
      if ((node.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') node.remove();
      else {
        for (const name of ['name', 'value', 'form', 'list', 'required', 'autofocus', 'readonly']) node.removeAttribute(name);
        node.setAttribute('disabled', '');
      }
      return;
    case 'DETAILS':
      node.setAttribute('open', '');
      return;
  }
}

/** One DOMPurify per jsdom window (@folio/dom replaces its window now and then); each dies with its window. */
const purifiers = new WeakMap<object, DOMPurify>();

function purifierFor(window: object): DOMPurify {
  let instance = purifiers.get(window);
  if (!instance) {
    instance = createDOMPurify(window as Parameters<typeof createDOMPurify>[0]);
    instance.addHook('uponSanitizeAttribute', judgeAddress);
    instance.addHook('afterSanitizeAttributes', settle);
    purifiers.set(window, instance);
  }
  return instance;
}

export interface SanitizeOptions {
  /** The page the HTML came from (`source_url`): relative addresses become absolute against it. http(s) only. */
  baseUrl?: string | null;
}

/** Removes scripts and anything unsafe (DOMPurify over jsdom) and makes links absolute against baseUrl. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const stash = new DataImageStash();
  const stashed = stash.stash(html);
  const clean = during(options.baseUrl, (value) => stash.restoreWhole(value), () => purifierFor(windowFor(stashed)).sanitize(stashed, CONFIG));
  return stash.restoreAll(clean);
}

export interface SanitizeContentOptions extends SanitizeOptions {
  /**
   * Undoes the caller's placeholders in attribute values (extraction sets long `data:` addresses aside before
   * parsing), so that an address is judged as the original and the original is what stays.
   */
  restore?: (value: string) => string;
}

const IN_PLACE_CONFIG: Config = { ...CONFIG, IN_PLACE: true };

/**
 * The same sanitising, in place, for content already parsed in this thread's window (@folio/dom): what extraction
 * hands over is cleaned where it lies instead of being serialised and parsed once more (a tenth of a url→pdf job's
 * CPU). The document must come from @folio/dom's `parseHtmlDocument`. `root` is the container (a `<div>`, say): it
 * must be an element the rules allow, and it is kept, with its children sanitised; callers take its `innerHTML`. Parsing in a browser-grade parser (parse5) and serialising
 * afterwards is the same round trip DOMPurify's string path makes.
 */
export function sanitizeContent(root: Element, options: SanitizeContentOptions = {}): void {
  const window = root.ownerDocument && windowOf(root.ownerDocument);
  if (!window) throw new TypeError('sanitizeContent works on documents parsed by @folio/dom (parseHtmlDocument)');
  during(options.baseUrl, options.restore ?? null, () => purifierFor(window).sanitize(root, IN_PLACE_CONFIG));
}

function during<T>(baseUrl: string | null | undefined, restore: ((value: string) => string) | null, run: () => T): T {
  currentBase = parseBase(baseUrl);
  currentRestore = restore;
  try {
    return run();
  } finally {
    currentBase = null;
    currentRestore = null;
  }
}
