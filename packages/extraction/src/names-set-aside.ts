import { elementsWithAttribute } from './elements.ts';

/**
 * Readability's "unlikely candidate" rule and the furniture rules (boilerplate.ts) read an element's class and id for
 * its part in the page. Some names say something else (what a section is about, how a heading is styled), and the
 * element they would drop is content: such a name is set aside while those rules read the page, and put back on the
 * content kept. What sets a name aside, and why, lives with its kind (section-anchors.ts, heading-names.ts).
 */
const ASIDE = { id: 'data-folio-set-aside-id', class: 'data-folio-set-aside-class' } as const;

/** Moves `element`'s `name` attribute where the rules that read names do not look. */
export function setNameAside(element: Element, name: keyof typeof ASIDE): void {
  const value = element.getAttribute(name);
  if (value === null) return;
  element.setAttribute(ASIDE[name], value);
  element.removeAttribute(name);
}

/** Puts the names set aside back, on `root` and under it. */
export function restoreNamesSetAside(root: Element): void {
  const kept = [root, ...elementsWithAttribute(root, [ASIDE.id, ASIDE.class])];
  for (const element of kept) {
    for (const [name, aside] of Object.entries(ASIDE)) {
      const value = element.getAttribute(aside);
      if (value === null) continue;
      element.setAttribute(name, value);
      element.removeAttribute(aside);
    }
  }
}
