import { elementsNamed, elementsWithAttribute, tagSet } from './elements.ts';

/**
 * A section's id that its own heading's permalink points at (`<section id="cookies"><h2>Cookies<a href="#cookies">¶`,
 * or the heading itself so linked) is made of the heading's words by the documentation generators that write it
 * (Sphinx, MkDocs, Docusaurus, rustdoc). It names what the section is about, never its part in the page; yet
 * Readability's "unlikely candidate" rule and the furniture rules (boilerplate.ts) read ids for that part, and dropped
 * Flask's "Cookies", the kernel's "Respond to review comments", Supabase's "Social Auth" and an article's "Overview of
 * Popular Instruments". Such an id is set aside while they read the page, and put back on what is kept, where a
 * table of contents' links still find it.
 *
 * Only an id a permalink points at: "related-posts", "comments" and "share-this-article" sections have ids made of
 * their headings' words too, and they are furniture; no permalink points at them.
 */
const SET_ASIDE = 'data-folio-section-id';
const HEADINGS = tagSet('h1', 'h2', 'h3', 'h4', 'h5', 'h6');
const LINKS = tagSet('a');

/** Sets aside the ids of `elements` that their own heading's permalink points at. */
export function setSectionAnchorsAside(elements: readonly Element[]): void {
  for (const element of elements) {
    const id = element.getAttribute('id');
    if (!id || !isPermalinkTarget(element, id)) continue;
    element.setAttribute(SET_ASIDE, id);
    element.removeAttribute('id');
  }
}

/** Puts the ids set aside back, on `root` and under it. */
export function restoreSectionAnchors(root: Element): void {
  for (const element of [root, ...elementsWithAttribute(root, [SET_ASIDE])]) {
    if (!element.hasAttribute(SET_ASIDE)) continue;
    element.setAttribute('id', element.getAttribute(SET_ASIDE)!);
    element.removeAttribute(SET_ASIDE);
  }
}

function isPermalinkTarget(element: Element, id: string): boolean {
  const first = element.firstElementChild;
  const heading = HEADINGS.has(element.localName) ? element : first && HEADINGS.has(first.localName) ? first : null;
  if (!heading) return false;
  const target = `#${id}`;
  return elementsNamed(heading, LINKS).some((link) => link.getAttribute('href') === target);
}
