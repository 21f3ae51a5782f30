import { elementsWithAttribute } from './elements.ts';

/**
 * Elements a CSS framework's utility class hides at every screen width: Bootstrap's `d-none`, with no `d-md-block`
 * (or the like) showing it again at some width. The page's CSS is not read here, so without this every output printed
 * what no reader saw: a Stack Exchange post's `\$\begingroup\$` for MathJax, a second copy of a label.
 */
const HIDDEN_EVERYWHERE = 'd-none';
/** A class that displays the element again from some screen width on (`d-sm-flex`, `d-lg-inline-block`…). */
const SHOWN_AT_SOME_WIDTH = /^d-(?:sm|md|lg|xl|xxl)-(?!none$)[a-z-]+$/;

/** How many elements were removed. */
export function removeHiddenByUtilities(root: Element): number {
  let removed = 0;
  for (const element of elementsWithAttribute(root, ['class'])) {
    if (!element.classList.contains(HIDDEN_EVERYWHERE) || !root.contains(element)) continue;
    if ([...element.classList].some((token) => SHOWN_AT_SOME_WIDTH.test(token))) continue;
    element.remove();
    removed++;
  }
  return removed;
}
