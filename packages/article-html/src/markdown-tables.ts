import { childElements } from '@folio/dom';

/**
 * Shapes tables so that every one of them becomes a GFM table and none is left as raw HTML.
 *
 * GFM table cells hold one line of inline content. The gfm plugin gives up on anything richer (a list, a heading or a
 * code block in a cell) by keeping the whole table as HTML, and renders layout tables (one cell, or a table of tables)
 * cell by cell. Here, before turndown runs:
 * - layout tables are unwrapped into their cells' content, which then reads as ordinary paragraphs;
 * - in the remaining (data) tables, block content in a cell is flattened to inline content: blocks become spaces,
 *   headings become bold, a code block becomes inline code, a list item starts with a bullet, line breaks become spaces.
 *
 * Only core DOM methods are used (no `append`, `prepend`, `:scope`), so this works on domino's DOM as on jsdom's.
 */

const CELL_BLOCK_NAMES = [
  'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'header', 'hgroup', 'li', 'main', 'nav', 'ol', 'p', 'section', 'summary', 'ul',
];
const CELL_BLOCKS = CELL_BLOCK_NAMES.join(',');

/** Every element `flattenCell` rewrites: a cell holding none of them is left as it is. */
export const RESHAPED_IN_CELLS: ReadonlySet<string> = new Set([
  ...CELL_BLOCK_NAMES, 'br', 'hr', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li',
]);

function isLayoutTable(table: Element): boolean {
  return Boolean(table.querySelector('table')) || table.querySelectorAll('td, th').length <= 1; // domino answers undefined, not null
}

/** Moves all children of `from` to the end of `to`. */
function moveChildren(from: Node, to: Node): void {
  while (from.firstChild) to.appendChild(from.firstChild);
}

/** Replaces `node` by `replacement` with a space on either side (so words on both sides do not run together). */
function replaceSpaced(node: Node, replacement: Node): void {
  const doc = node.ownerDocument!;
  const parent = node.parentNode!;
  parent.insertBefore(doc.createTextNode(' '), node);
  parent.insertBefore(replacement, node);
  parent.insertBefore(doc.createTextNode(' '), node);
  parent.removeChild(node);
}

/** Replaces a layout table by a `div` per cell (after its caption, if any), in reading order. */
function unwrapLayoutTable(table: Element): void {
  const doc = table.ownerDocument;
  const replacement = doc.createElement('div');
  for (const child of childElements(table)) {
    if (child.nodeName !== 'CAPTION') continue;
    const p = doc.createElement('p');
    moveChildren(child, p);
    replacement.appendChild(p);
  }
  for (const cell of Array.from(table.querySelectorAll('td, th'))) {
    if (cell.closest('table') !== table) continue;
    const div = doc.createElement('div');
    moveChildren(cell, div);
    replacement.appendChild(div);
  }
  table.parentNode!.replaceChild(replacement, table);
}

function flattenCell(cell: Element): void {
  const doc = cell.ownerDocument;
  const fragmentOf = (element: Element) => {
    const fragment = doc.createDocumentFragment();
    moveChildren(element, fragment);
    return fragment;
  };
  for (const br of Array.from(cell.querySelectorAll('br, hr'))) br.parentNode!.replaceChild(doc.createTextNode(' '), br);
  for (const pre of Array.from(cell.querySelectorAll('pre'))) {
    const code = doc.createElement('code');
    code.textContent = (pre.textContent ?? '').replace(/\s+/g, ' ').trim();
    replaceSpaced(pre, code);
  }
  for (const heading of Array.from(cell.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const strong = doc.createElement('strong');
    strong.appendChild(fragmentOf(heading));
    replaceSpaced(heading, strong);
  }
  for (const item of Array.from(cell.querySelectorAll('li'))) item.insertBefore(doc.createTextNode('• '), item.firstChild);
  // Innermost first, so that each replacement only ever moves inline content.
  for (const block of Array.from(cell.querySelectorAll(CELL_BLOCKS)).reverse()) replaceSpaced(block, fragmentOf(block));
}

export function shapeTables(root: Element): void {
  let layout: Element | undefined;
  // Unwrapping one layout table can make another one's shape visible, so look again after each.
  while ((layout = Array.from(root.querySelectorAll('table')).find(isLayoutTable))) unwrapLayoutTable(layout);
  for (const cell of Array.from(root.querySelectorAll('td, th'))) flattenCell(cell);
}
