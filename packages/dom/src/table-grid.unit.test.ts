import { describe, expect, it } from 'vitest';
import { fitTableSpans, mayHoldTooLargeTable, parseHtmlDocument } from './index.ts';

const body = (html: string) => parseHtmlDocument(`<!DOCTYPE html><body>${html}`).body;

describe('fitTableSpans', () => {
  it('leaves a table whose spans fit alone, and says nothing changed', () => {
    const html = '<table><tbody><tr><td colspan="2">wide</td></tr><tr><td rowspan="2">tall</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>';
    const root = body(html);
    expect(fitTableSpans(root)).toEqual({ changed: false, tooLarge: [] });
    expect(root.innerHTML).toBe(html);
  });

  it('clips a rowspan at the end of its row group and a colspan at 1,000, as a browser lays them out', () => {
    const root = body('<table><tbody><tr><td rowspan="9">a</td><td rowspan="0">z</td></tr><tr><td>b</td></tr></tbody><tbody><tr><td rowspan="2" colspan="5000">c</td></tr></tbody></table>');
    expect(fitTableSpans(root).changed).toBe(true);
    expect(root.innerHTML).toBe('<table><tbody><tr><td rowspan="2">a</td><td rowspan="2">z</td></tr><tr><td>b</td></tr></tbody><tbody><tr><td colspan="1000">c</td></tr></tbody></table>');
  });

  it('takes the spans from a table whose grid they would make far larger than its cells', () => {
    // 80 cells that a browser lays out as 80 rows of 80,000 columns.
    const root = body(`<table>${'<tr><td rowspan="65534" colspan="1000">x</td></tr>'.repeat(80)}</table>`);
    expect(fitTableSpans(root)).toEqual({ changed: true, tooLarge: [] });
    expect(root.querySelectorAll('[rowspan], [colspan]')).toHaveLength(0);
    expect(root.querySelectorAll('td')).toHaveLength(80);
  });

  it('names a table too large without spans: one row far wider than the rest', () => {
    const root = body(`<table>${'<tr><td>short</td></tr>'.repeat(1000)}<tr>${'<td>w</td>'.repeat(1000)}</tr></table><table><tr><td>small</td></tr></table>`);
    const { tooLarge } = fitTableSpans(root);
    expect(tooLarge).toEqual([root.querySelector('table')]);
  });
});

describe('mayHoldTooLargeTable', () => {
  const padded = `<table>${'<tr><td>short</td></tr>'.repeat(1000)}<tr>${'<td>w</td>'.repeat(1000)}</tr></table>`;

  it('says yes to a table one row far wider than the rest, in any case of tag names', () => {
    expect(mayHoldTooLargeTable(`<p>before</p>${padded}<p>after</p>`)).toBe(true);
    expect(mayHoldTooLargeTable(padded.toUpperCase())).toBe(true);
  });

  it('says no to tables that are as large as their cells, however many', () => {
    const square = `<table><thead><tr>${'<th>h</th>'.repeat(10)}</tr></thead><tbody>${`<tr>${'<td>c</td>'.repeat(10)}</tr>`.repeat(500)}</tbody></table>`;
    expect(mayHoldTooLargeTable(square.repeat(3))).toBe(false);
    expect(fitTableSpans(body(square)).tooLarge).toEqual([]);
  });

  it('counts a table inside a cell apart from the table around it', () => {
    // A thousand one-cell rows, one of whose cells holds a table of one row of a thousand cells: each grid is its own.
    const nested = `<table>${'<tr><td>short</td></tr>'.repeat(999)}<tr><td><table><tr>${'<td>w</td>'.repeat(1000)}</tr></table></td></tr></table>`;
    expect(mayHoldTooLargeTable(nested)).toBe(false);
    expect(fitTableSpans(body(nested)).tooLarge).toEqual([]);
  });

  it('never says no where fitTableSpans finds a table too large (random tables around the limit)', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
    const row = (cells: number) => `<tr>${'<td>x</td>'.repeat(cells)}</tr>`;
    let found = 0;
    for (let t = 0; t < 60; t++) {
      // Narrow rows and one wide one somewhere, rows × widest around MAX_TABLE_SLOTS; sometimes a table in a cell.
      const rows = Array.from({ length: 1 + random(250) }, () => row(1 + random(3)));
      rows.splice(random(rows.length), 0, row(1 + random(200)));
      if (random(3) === 0) rows[0] = `<tr><td><table>${row(1 + random(200))}</table></td></tr>`;
      const html = `<table>${rows.join('')}</table>`;
      const tooLarge = fitTableSpans(body(html)).tooLarge.length > 0;
      found += Number(tooLarge);
      if (tooLarge) expect(mayHoldTooLargeTable(html), html.slice(0, 200)).toBe(true);
    }
    // The draw holds tables on both sides of the limit.
    expect(found).toBeGreaterThan(5);
    expect(found).toBeLessThan(55);
  });
});
