import { setsTextApart, showsNoText } from './text.ts';

/**
 * Words that the page's layout sets apart but its markup runs together: a product's brand and name in two spans
 * ("The North Face" "Wawona 6 Tent"), a card's title and its text, a label and its value — shown apart by CSS
 * (blocks, flex items) that is not read here, so their text would read "The North FaceWawona 6 Tent" in every output.
 * Where the edge of an inline element is all that separates a word ending in a small letter or a digit from one
 * beginning with a capital and a small letter, a space goes in. Inside one text node nothing changes
 * ("JavaScript", "iPhone"), nor does a capital followed by the rest of its word ("<b>T</b>he", a drop cap), nor
 * code, nor text that blocks already set apart.
 */
const CODE = new Set(['pre', 'code', 'kbd', 'samp', 'var']);
const ENDS_WORD = /[\p{Ll}\p{N}]$/u;
const STARTS_WORD = /^\p{Lu}\p{Ll}/u;

/** How many spaces went in. */
export function separateGluedWords(root: Element): number {
  let spaces = 0;
  // The last text met in the current run of inline content, and whether an element's edge lies between it and the next.
  let previous: Text | null = null;
  let edge = false;
  const visit = (node: Node, inCode: boolean) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const text = child as Text;
        if (text.data.length === 0) continue;
        if (previous && edge && !inCode && ENDS_WORD.test(previous.data) && STARTS_WORD.test(text.data)) {
          previous.data += ' ';
          spaces++;
        }
        previous = inCode ? null : text;
        edge = false;
      } else if (child.nodeType === 1) {
        const name = (child as Element).localName;
        if (showsNoText(name)) continue;
        const apart = setsTextApart(name);
        if (apart) previous = null;
        edge = true;
        visit(child, inCode || CODE.has(name));
        if (apart) previous = null;
        edge = true;
      }
    }
  };
  visit(root, false);
  return spaces;
}
