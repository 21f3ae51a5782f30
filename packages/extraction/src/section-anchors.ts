import { elementsNamed, HEADINGS, tagSet } from './elements.ts';
import { setNameAside } from './names-set-aside.ts';

/**
 * A section's id that its own heading's permalink points at (`<section id="cookies"><h2>Cookies<a href="#cookies">¶`,
 * or the heading itself so linked) is made of the heading's words by the documentation generators that write it
 * (Sphinx, MkDocs, Docusaurus, rustdoc). It names what the section is about, never its part in the page; yet
 * Readability's "unlikely candidate" rule and the furniture rules (boilerplate.ts) read ids for that part, and dropped
 * Flask's "Cookies", the kernel's "Respond to review comments", Supabase's "Social Auth" and an article's "Overview of
 * Popular Instruments". Such an id is set aside while they read the page, and put back on what is kept, where a
 * table of contents' links still find it (names-set-aside.ts).
 *
 * Only an id a permalink points at: "related-posts", "comments" and "share-this-article" sections have ids made of
 * their headings' words too, and they are furniture; no permalink points at them.
 */
const LINKS = tagSet('a');

/** Sets aside the ids of `elements` that their own heading's permalink points at. */
export function setSectionAnchorsAside(elements: readonly Element[]): void {
  for (const element of elements) {
    const id = element.getAttribute('id');
    if (id && isPermalinkTarget(element, id)) setNameAside(element, 'id');
  }
}

function isPermalinkTarget(element: Element, id: string): boolean {
  const first = element.firstElementChild;
  const heading = HEADINGS.has(element.localName) ? element : first && HEADINGS.has(first.localName) ? first : null;
  if (!heading) return false;
  const target = `#${id}`;
  return elementsNamed(heading, LINKS).some((link) => link.getAttribute('href') === target);
}
