import { elementsWithAttribute } from './elements.ts';
import { textLength } from './text-measure.ts';

/**
 * Elements a page's own markup places off the screen (`style="position:absolute; left:-9999px"`): no reader sees them.
 * It is how link spam injected into a hacked site hides from its owner (paragraphs about casinos after the footer,
 * which Readability, blind to positions, takes into the article for their good text) and how a script keeps a helper
 * text out of sight. They go before anything chooses, as hidden elements do, since Readability strips the
 * style that says where they are. The stylesheet is not read, so only inline styles count; and, as for a hidden
 * wrapper (`regionContent`), one holding most of the page's text is content a script moves into view: it stays.
 */
const POSITIONED = /(?:^|;)\s*position\s*:\s*(?:absolute|fixed)\b/i;
/** A negative `left` or `top`, its amount and unit. */
const NEGATIVE_OFFSET = /(?:^|;)\s*(?:left|top)\s*:\s*-\s*(\d+(?:\.\d+)?)\s*(px|r?em)\b/gi;
/** Offsets past any screen: a thousand pixels, or fifty ems (800 px at the default size), to the left or above. */
const OFF_SCREEN_PX = 999;
const OFF_SCREEN_EM = 50;
/** Share of the page's text an off-screen element may hold and still go. */
const MAX_SHARE = 0.5;

/**
 * Whether a page's markup may place something off the screen: a look at its raw text, far cheaper than walking its
 * elements for their styles (1.7 ms at the median of WCXB's pages), which most pages never need.
 */
export function mayHoldOffScreen(html: string): boolean {
  return MAYBE_OFF_SCREEN.test(html);
}

const MAYBE_OFF_SCREEN = /(?<![-\w])(?:left|top)\s*:\s*-\s*\d{2}/i;

/** How many off-screen elements were removed from under `root`. */
export function removeOffScreen(root: Element): number {
  let total: number | null = null;
  let removed = 0;
  for (const element of elementsWithAttribute(root, ['style'])) {
    if (!isOffScreen(element.getAttribute('style')!) || !root.contains(element)) continue;
    total ??= textLength(root);
    if (textLength(element) > total * MAX_SHARE) continue;
    element.remove();
    removed++;
  }
  return removed;
}

/** Whether an inline style positions its element off the screen. */
export function isOffScreen(style: string): boolean {
  if (!POSITIONED.test(style)) return false;
  for (const [, amount, unit] of style.matchAll(NEGATIVE_OFFSET)) {
    if (Number(amount) >= (unit!.toLowerCase() === 'px' ? OFF_SCREEN_PX : OFF_SCREEN_EM)) return true;
  }
  return false;
}
