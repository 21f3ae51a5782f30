import { childElements, fitTableSpans, mayHoldTooLargeTable, parseHtmlDocument, tableAsParagraphs } from '@folio/dom';

/**
 * The article's markup as pdf prints it, reshaped where Chromium's print would take time that grows faster than the
 * markup (measured here, the print of one document alone):
 *
 * - A table still too large once fitted (@folio/dom `fitTableSpans`: one row far wider than the rest, so that a
 *   layout pads every row to it) becomes paragraphs, as docx writes it. Chromium lays a table's whole grid out again
 *   on every page it spans: a thousand one-cell rows and one row of a thousand cells (40 KB of markup, a million
 *   slots, 72 pages) held a print slot 2.4–4.2 s and ran past the 20 s render budget on a busy machine; as paragraphs
 *   it prints in 0.15–0.25 s.
 * - An element with more than LINES_A_BLOCK lines parted by `<br>` (a poem, a log, plain text made HTML) is cut into
 *   blocks of that many lines. Chromium prints one block's lines again on every page it spans: 2,500, 5,000 and
 *   10,000 lines in one paragraph took 0.7, 3.8 and 14.8 s (30,000 ran past a minute); in blocks of 100 lines, 0.2,
 *   0.3 and 0.6 s. A paragraph becomes paragraphs that follow on without a gap (`folio-continues`); anything else
 *   keeps its element and holds the blocks as `<div>`s.
 *
 * Markup is parsed again only where its tags say there may be such a table or such a run of lines.
 */
export function printableMarkup(contentHtml: string): string {
  const tables = mayHoldTooLargeTable(contentHtml);
  const lines = (contentHtml.match(LINE_BREAK)?.length ?? 0) > LINES_A_BLOCK;
  if (!tables && !lines) return contentHtml;
  const body = parseHtmlDocument(`<!DOCTYPE html><body>${contentHtml}`).body;
  let changed = false;
  if (tables) {
    for (const table of fitTableSpans(body).tooLarge) {
      table.replaceWith(...tableAsParagraphs(table));
      changed = true;
    }
  }
  if (lines) changed = cutLongRunsOfLines(body) || changed;
  return changed ? body.innerHTML : contentHtml;
}

/** Lines a block holds at most in print: a few pages. */
const LINES_A_BLOCK = 100;

const LINE_BREAK = /<br[\s/>]/gi;

/** Cuts every element with more than LINES_A_BLOCK `<br>` children into blocks; whether any was cut. */
function cutLongRunsOfLines(root: HTMLElement): boolean {
  const long = [root, ...root.querySelectorAll('*')].filter((element) => breaksIn(element) > LINES_A_BLOCK);
  for (const element of long) {
    const groups = linesInGroups(element);
    const document = element.ownerDocument;
    if (element.localName === 'p') {
      // A paragraph cannot hold blocks: it becomes paragraphs, the first keeping its id.
      const parts = groups.map((nodes, i) => {
        const part = element.cloneNode(false) as HTMLElement;
        if (i > 0) part.removeAttribute('id');
        if (i < groups.length - 1) part.classList.add('folio-continues');
        part.append(...nodes);
        return part;
      });
      element.replaceWith(...parts);
    } else {
      element.replaceChildren(
        ...groups.map((nodes) => {
          const block = document.createElement('div');
          block.append(...nodes);
          return block;
        }),
      );
    }
  }
  return long.length > 0;
}

/** `<br>` children, counted by walking siblings (jsdom's live `children` made this quadratic: @folio/dom `childElements`). */
function breaksIn(element: Element): number {
  return childElements<Element>(element).filter((child) => child.localName === 'br').length;
}

/** An element's child nodes in groups, each ending with its LINES_A_BLOCK-th `<br>` (the last with what is left). */
function linesInGroups(element: Element): Node[][] {
  const groups: Node[][] = [[]];
  let lines = 0;
  for (let node = element.firstChild; node; node = node.nextSibling) {
    groups.at(-1)!.push(node);
    if (node.nodeType === node.ELEMENT_NODE && (node as Element).localName === 'br' && ++lines % LINES_A_BLOCK === 0) groups.push([]);
  }
  if (groups.at(-1)!.length === 0) groups.pop();
  return groups;
}
