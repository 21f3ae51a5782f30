import { elementsNamed, elementsWhere, tagSet } from '@folio/dom';

// The walk by local names, shared with the other packages that read documents (docx-output), lives in @folio/dom.
export { elementsNamed, tagSet };

/** The six heading elements. */
export const HEADINGS = tagSet('h1', 'h2', 'h3', 'h4', 'h5', 'h6');

/** The first element under `root`, in document order, whose local name is one of `names` (`querySelector`). */
export function firstNamed(root: ParentNode, names: ReadonlySet<string>): Element | null {
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
    if (names.has(child.localName)) return child;
    const below = child.firstElementChild ? firstNamed(child, names) : null;
    if (below) return below;
  }
  return null;
}

/** `element` itself or its nearest ancestor whose local name is one of `names` (`closest`). */
export function closestNamed(element: Element, names: ReadonlySet<string>): Element | null {
  for (let at: Element | null = element; at; at = at.parentElement) if (names.has(at.localName)) return at;
  return null;
}

/** The elements under `root` that carry any of `attributes`, in document order (`[class], [id]`). */
export function elementsWithAttribute(root: ParentNode, attributes: readonly string[]): Element[] {
  return elementsWhere(root, (element) => attributes.some((name) => element.hasAttribute(name)));
}

/** Every element under `root`, in document order (`querySelectorAll('*')`). */
export function descendants(root: ParentNode): Element[] {
  return elementsWhere(root, () => true);
}

/** An inline style's declaration that hides its element. */
const HIDING_DECLARATION = /(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*;?/i;

/** Whether the markup marks an element hidden (Readability's test, without computed style). */
export function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden')) return true;
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && HIDING_DECLARATION.test(style);
}

/** An inline style without the declarations that hide its element (`isHidden`'s). */
export function withoutHidingStyle(style: string): string {
  return style.replace(new RegExp(HIDING_DECLARATION.source, 'gi'), '');
}
