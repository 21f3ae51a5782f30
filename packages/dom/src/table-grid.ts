import { childElements } from './index.ts';

/**
 * Tables whose spans would make their grid far larger than their markup, fitted. A cell's `rowspan` reaches no
 * further than the last row of its row group (`0` means exactly that), its `colspan` no further than HTML's 1,000,
 * as a browser lays them out. A table whose grid would still pass MAX_TABLE_SLOTS and twice its cells loses its spans.
 *
 * Why: whatever lays a table out pays for every slot of its grid. 4 KB of 80 cells, each spanning 65,534 rows and
 * 1,000 columns, is 80 rows of 80,000 columns: docx's importer ran out of 4 GB on it, and Chromium took past 20 s
 * to print it.
 *
 * Returns whether anything changed, and the tables whose grid is too large even without spans (one row far wider
 * than the rest: a layout pads every row to the widest).
 */
export function fitTableSpans(root: Element): { changed: boolean; tooLarge: HTMLTableElement[] } {
  let changed = false;
  const tooLarge: HTMLTableElement[] = [];
  for (const table of root.querySelectorAll('table')) {
    const groups = rowGroups(table).map((group) => childElements<Element>(group).filter(isRow).map(cellsOf));
    for (const rows of groups) rows.forEach((cells, i) => {
      for (const cell of cells) changed = fitCell(cell, rows.length - i) || changed;
    });
    const rows = groups.flat();
    const limit = Math.max(MAX_TABLE_SLOTS, 2 * rows.reduce((sum, cells) => sum + cells.length, 0));
    if (gridSlots(rows, limit) !== Infinity) continue;
    for (const cell of rows.flat()) {
      if (cell.hasAttribute('rowspan') || cell.hasAttribute('colspan')) changed = true;
      cell.removeAttribute('rowspan');
      cell.removeAttribute('colspan');
    }
    if (gridSlots(rows, limit) === Infinity) tooLarge.push(table);
  }
  return { changed, tooLarge };
}

const TABLE_TAG = /<(\/?)(table|tr|td|th)[\s/>]/gi;

/**
 * Whether serialised markup may hold a table `fitTableSpans` would find too large, read from its tags alone: each
 * table's rows × its widest row against the same limit, spans not counted (once fitted, a span that is left keeps its
 * grid within the limit). Markup is parsed again only where this says yes: most articles' tables are far from it,
 * and parsing a page of tables again costs tens of milliseconds. It is meant for markup as the sanitiser serialises
 * it, where every table tag is one (no comments; `<` escaped in text and attribute values). Elsewhere a table tag
 * named in a comment or an attribute could mislead it either way, and a table it misses is laid out as it came.
 */
export function mayHoldTooLargeTable(html: string): boolean {
  type Open = { rows: number; cells: number; width: number; row: number };
  const open: Open[] = [];
  const tooLarge = (t: Open) => Math.max(t.width, t.row) * t.rows > Math.max(MAX_TABLE_SLOTS, 2 * t.cells);
  for (const [, closing, name] of html.matchAll(TABLE_TAG)) {
    const tag = name!.toLowerCase();
    const table = open.at(-1);
    if (tag === 'table') {
      if (!closing) open.push({ rows: 0, cells: 0, width: 0, row: 0 });
      else if (table && tooLarge(open.pop()!)) return true;
    } else if (!table || closing) continue;
    else if (tag === 'tr') (table.width = Math.max(table.width, table.row)), (table.row = 0), table.rows++;
    else table.row++, table.cells++, (table.rows ||= 1); // a cell before any row has one made for it
  }
  // Tables left open at the end (markup cut short) are judged as they stand.
  return open.some(tooLarge);
}

/** A grid Word builds in a few seconds (docx: ~0.1 ms and ~20 KB a slot; 500 rows of 40 columns took 2.6 s). */
export const MAX_TABLE_SLOTS = 20_000;

/** HTML's own cap on `colspan`. */
const MAX_COLSPAN = 1000;

/** Clips one cell's spans; whether its markup changed. */
function fitCell(cell: HTMLTableCellElement, rowsLeft: number): boolean {
  let changed = false;
  if (cell.hasAttribute('colspan')) {
    const span = Math.min(cell.colSpan, MAX_COLSPAN); // the getter reflects HTML's parsing and clamp
    if (cell.getAttribute('colspan') !== String(span)) (cell.colSpan = span), (changed = true);
  }
  if (cell.hasAttribute('rowspan')) {
    const span = cell.rowSpan === 0 ? rowsLeft : Math.min(cell.rowSpan, rowsLeft);
    if (span <= 1) cell.removeAttribute('rowspan'), (changed = true);
    else if (cell.getAttribute('rowspan') !== String(span)) (cell.rowSpan = span), (changed = true);
  }
  return changed;
}

/**
 * The slots of a table's grid, rows × columns, as HTML's table model places its cells (each in the first column its
 * row has free, spans occupying the slots below and beside); Infinity past `limit`, where counting stops, so the work
 * is bounded too.
 */
function gridSlots(rows: HTMLTableCellElement[][], limit: number): number {
  const busyUntil: number[] = []; // by column: the first row no span from above still occupies
  let width = 0;
  let steps = 0;
  for (let r = 0; r < rows.length; r++) {
    let column = 0;
    for (const cell of rows[r]!) {
      while ((busyUntil[column] ?? 0) > r) column++, steps++;
      const until = r + Math.max(1, cell.rowSpan);
      for (let c = 0; c < cell.colSpan; c++) busyUntil[column++] = until, steps++;
      width = Math.max(width, column);
      if (steps > limit || width * rows.length > limit) return Infinity;
    }
  }
  return width * rows.length;
}

const isRow = (element: Element) => element.localName === 'tr';

/** The table itself (rows directly in it) and its thead, tbody and tfoot: the groups a rowspan stays within. */
function rowGroups(table: Element): Element[] {
  return [table, ...childElements<Element>(table).filter((e) => e.localName === 'thead' || e.localName === 'tbody' || e.localName === 'tfoot')];
}

/** A table's own rows in document order (not a nested table's). jsdom's `rows` and `cells` are avoided: see `childElements`. */
export function rowsOf(table: Element): Element[] {
  return rowGroups(table).flatMap((group) => childElements<Element>(group).filter(isRow));
}

export function cellsOf(row: Element): HTMLTableCellElement[] {
  return childElements<Element>(row).filter((e) => e.localName === 'td' || e.localName === 'th') as HTMLTableCellElement[];
}

/**
 * A table's caption and rows as paragraphs, each row's cells parted by " | ": what the outputs that lay a table out
 * (docx, pdf) make of one `fitTableSpans` found too large, whose words would otherwise cost a grid of padding.
 */
export function tableAsParagraphs(table: HTMLTableElement): HTMLElement[] {
  const document = table.ownerDocument;
  const paragraph = (nodes: Node[]) => {
    const p = document.createElement('p');
    p.append(...nodes);
    return p;
  };
  const rows = rowsOf(table).map((row) => paragraph(cellsOf(row).flatMap((cell, i) => [...(i > 0 ? [document.createTextNode(' | ')] : []), ...cell.childNodes])));
  return table.caption ? [paragraph([...table.caption.childNodes]), ...rows] : rows;
}
