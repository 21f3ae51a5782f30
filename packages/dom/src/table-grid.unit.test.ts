import { describe, expect, it } from 'vitest';
import { fitTableSpans, parseHtmlDocument } from './index.ts';

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
