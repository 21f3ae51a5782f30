import { Readability } from '@mozilla/readability';
import { HEADINGS } from './elements.ts';
import { setNameAside } from './names-set-aside.ts';

/**
 * Readability drops an element whose class or id reads like the page's furniture (`header`, `footer`, `extra`,
 * `social`…, its "unlikely candidate" rule), with everything inside it, before it scores anything. That is a rule for
 * containers: a sidebar, a comment thread. A heading contains no furniture; its names say how it is styled or what it
 * heads, and the rule matches inside words: Substack writes every section heading of a post as `header-anchor-post`,
 * Tailwind's `leading-extra-tight` reads "extra", and Readability took each such heading from the section it then
 * kept. Such a heading's class and id are set aside while Readability and the furniture rules read the page
 * (names-set-aside.ts); whether its section is content is for the section's own names to say.
 */
export function setHeadingNamesAside(elements: readonly Element[]): void {
  for (const element of elements) {
    if (!HEADINGS.has(element.localName)) continue;
    const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (!UNLIKELY.test(names) || MAYBE.test(names)) continue;
    setNameAside(element, 'class');
    setNameAside(element, 'id');
  }
}


// Readability's own patterns, so that the rule spared is exactly the rule applied.
const { unlikelyCandidates: UNLIKELY, okMaybeItsACandidate: MAYBE } = (Readability.prototype as unknown as {
  REGEXPS: { unlikelyCandidates: RegExp; okMaybeItsACandidate: RegExp };
}).REGEXPS;
