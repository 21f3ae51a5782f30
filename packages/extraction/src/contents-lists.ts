import { baseAddress } from '@folio/dom';
import { closestNamed, descendants, elementsNamed, tagSet } from './elements.ts';
import { pageOf } from './host.ts';
import { normalisedText } from './text-measure.ts';

/**
 * An article's table of contents: its label ("Table of Contents", "In this article", "On this page") and the list of
 * links to the article's own sections after it. In a document the headings it points at follow anyway, and its
 * links lead nowhere once printed; the furniture rules often take the list (a `<nav>`, a list of links) and leave
 * its label standing alone above the article's first paragraph. A label names a table of contents only by these
 * words: "Contents" alone also heads a product's box contents, which are content.
 */
const CONTENTS_LABEL = /^(?:table of contents|in this (?:article|post|guide)|on this page|jump to(?: section)?|inhaltsverzeichnis|inhalt dieser seite|sommaire|table des matières|índice|índice de contenidos|tabla de contenidos|indice|inhoudsopgave|spis treści|sumário)\s*[:：]?$/i;
/** The label is a line: a heading, a paragraph, a caption of a toggle. */
const LABELS = tagSet('p', 'div', 'span', 'strong', 'b', 'h2', 'h3', 'h4', 'h5', 'h6', 'summary', 'button', 'label', 'header');
const LINKS = tagSet('a');
const LI = tagSet('li');
const MAX_LABEL_LENGTH = 40;

/** The text of an element's own text nodes, whitespace collapsed. */
function ownText(element: Element): string {
  let text = '';
  for (let node = element.firstChild; node; node = node.nextSibling) if (node.nodeType === 3) text += (node as Text).data;
  return text.replace(/\s+/g, ' ').trim();
}

export function removeTablesOfContents(root: Element): void {
  const base = baseAddress(root.ownerDocument);
  const page = pageOf(base);
  // An anchor, alone or after this page's own address (`pageOf` reads an address without its fragment).
  const leadsIntoPage = (a: Element) => {
    const href = a.getAttribute('href') ?? '';
    return href.startsWith('#') || (href.includes('#') && page !== null && pageOf(href, base) === page);
  };
  // Each element's own text is read, not its whole subtree's: a page's thousands of blocks are not each walked again.
  for (const label of descendants(root)) {
    if (!LABELS.has(label.localName)) continue;
    const text = ownText(label);
    if (text === '' || text.length > MAX_LABEL_LENGTH || !CONTENTS_LABEL.test(text)) continue;
    if (!root.contains(label) || closestNamed(label, LI)) continue;
    if (label.firstElementChild !== null && normalisedText(label) !== text) continue;
    // The outermost block the label is the whole text of (a toggle's button inside its heading), read by structure,
    // not by text (nor by `childElementCount`, which jsdom counts child by child): a parent's whole text, read for
    // each of thousands of labels, would be slow.
    let line = label;
    for (let parent = line.parentElement; parent && parent !== root && parent.firstElementChild === parent.lastElementChild && ownText(parent) === ''; parent = parent.parentElement) line = parent;
    const list = line.nextElementSibling;
    if (list) {
      const links = elementsNamed(list, LINKS);
      if (links.length > 0 && links.every(leadsIntoPage)) list.remove();
    }
    line.remove();
  }
}
