import { JSDOM } from 'jsdom';

/**
 * An independent check that HTML can neither run script, nor submit, embed, navigate or restyle itself: it parses
 * the HTML with a fresh jsdom (not the sanitiser's) and lists every way in which it is not inert. Tests assert the
 * list is empty for sanitised output and non-empty for the raw payloads, so the check is shown to bite.
 */
const FORBIDDEN_ELEMENTS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'meta', 'base', 'link', 'form',
  'button', 'textarea', 'select', 'noscript', 'template', 'foreignobject', 'animate', 'animatemotion',
  'animatetransform', 'animatecolor', 'set', 'use', 'isindex', 'portal', 'xmp', 'noembed', 'noframes', 'plaintext',
  'maction', 'annotation-xml', 'handler', 'listener',
]);
const FORBIDDEN_ATTRIBUTES = new Set(['style', 'srcdoc', 'formaction', 'action', 'ping', 'target']);
const SCRIPTY_URL = /^(?:javascript|vbscript|data|livescript|mocha):/i;

function cleaned(value: string): string {
  return value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
}

/** The check's own jsdom window (not the sanitiser's), made once: a window per check costs ten times the parse. */
const checker = new JSDOM('').window;

export function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  // Parsed as a whole document, so that a leading <frameset>, <meta> or <base> takes effect as it would in a page.
  const document = new checker.DOMParser().parseFromString(html, 'text/html');
  const { NodeFilter } = checker;
  const comments = document.createTreeWalker(document, NodeFilter.SHOW_COMMENT);
  for (let node = comments.nextNode(); node; node = comments.nextNode()) {
    if (/<[/\w!]/.test(node.nodeValue ?? '')) problems.push(`<!--markup-->`);
  }
  for (const element of Array.from(document.querySelectorAll('*'))) {
    const tag = element.localName.toLowerCase();
    if (FORBIDDEN_ELEMENTS.has(tag)) problems.push(`<${tag}>`);
    if (tag === 'input' && (element.getAttribute('type') !== 'checkbox' || !element.hasAttribute('disabled'))) {
      problems.push(`<input type=${element.getAttribute('type')}>`);
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = cleaned(attribute.value);
      if (name.startsWith('on')) problems.push(`${tag}[${name}]`);
      if (FORBIDDEN_ATTRIBUTES.has(name)) problems.push(`${tag}[${name}]`);
      // DOMPurify neutralises `is` by emptying it (the value binds at creation): only a non-empty one is a problem.
      if (name === 'is' && value !== '') problems.push(`${tag}[is=${value}]`);
      if (name === 'name' && ['cookie', 'location', 'body', 'forms', 'domain'].includes(value)) problems.push(`${tag}[name=${value}] clobbers`);
      const embeddedImage = tag === 'img' && name === 'src' && /^data:image\//i.test(value);
      if (SCRIPTY_URL.test(value) && !embeddedImage) problems.push(`${tag}[${name}=${value.slice(0, 30)}]`);
      if (name === 'srcset' && /(?:^|,)\s*(?:javascript|vbscript|data):/i.test(attribute.value)) problems.push(`${tag}[srcset]`);
      if (tag === 'img' && name === 'src' && /^data:/i.test(value) && !/^data:image\//i.test(value)) problems.push('img[src=data:non-image]');
    }
  }
  return problems;
}
