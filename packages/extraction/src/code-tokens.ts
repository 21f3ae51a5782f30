import { descendants } from './elements.ts';

/**
 * A highlighted code block's token spans, made its text. A highlighter (Prism, highlight.js, Pygments, Shiki) writes a
 * `<span class="…">` for every token, so a documentation page's code can be most of its elements (two thirds of one
 * dev page's 4,800), and every later step walks them: Readability's scoring and cleaning, the cleanup, the
 * sanitiser, the text. Their classes are dropped with every other class once the article is chosen (cleanup.ts), so
 * they never reach an output: a block of bare spans reads, prints and converts exactly as its text.
 *
 * Only a block whose every element is a span (or the `<code>` around them) with nothing but a class, and no class
 * that could hide it or mark it as something other than code (a line number, a copy button, screen-reader text), is
 * rewritten: anything else is left for the steps that know what it is.
 */
export function flattenCodeTokens(root: Element): number {
  let flattened = 0;
  for (const pre of Array.from(root.getElementsByTagName('pre'))) {
    if (pre.parentElement?.closest('pre') || !onlyTokenSpans(pre)) continue;
    const codes = Array.from(pre.getElementsByTagName('code')).filter((code) => !code.parentElement?.closest('code'));
    for (const target of codes.length > 0 ? codes : [pre]) {
      if (!target.getElementsByTagName('span')[0]) continue;
      // One text node for the block: what `textContent` reads is what every output took from the spans.
      target.textContent = target.textContent;
      flattened++;
    }
  }
  return flattened;
}

/** A class that may hide a token or say it is not code: left to the steps that remove such things. */
const NOT_A_TOKEN = /hidden|hide|sr-only|screen-?reader|visually|invisible|none|collapse|line-?n|lineno|gutter|copy|clipboard|button/i;

function onlyTokenSpans(pre: Element): boolean {
  let spans = 0;
  for (const element of descendants(pre)) {
    const name = element.localName;
    if (name === 'code') continue; // kept, with whatever it says of the language
    if (name !== 'span') return false;
    const attributes = element.attributes;
    if (attributes.length > 1 || (attributes.length === 1 && attributes[0]!.name !== 'class')) return false;
    if (attributes.length === 1 && NOT_A_TOKEN.test(attributes[0]!.value)) return false;
    spans++;
  }
  return spans > 0;
}
