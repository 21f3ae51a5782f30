import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { convert } from './index.ts';
import { MAX_MARKDOWN_INDENT, MAX_MARKDOWN_NESTING, markdownToHtml, withinIndent, withinMarkerNesting } from './markdown.ts';

const text = async (kind: 'html' | 'markdown', input: string) => {
  const result = await convert({ input: { kind, text: input }, output: 'text', options: DEFAULT_OPTIONS });
  if (result.kind !== 'content') throw new Error('expected content');
  return result.content;
};

describe('input nested beyond reason degrades instead of failing', () => {
  it('html 10,000 levels deep is flattened to its text before anything parses it', async () => {
    const html = `${'<div><span>'.repeat(5_000)}deep inside${'</span></div>'.repeat(5_000)}<p>after</p>`;
    expect(await text('html', html)).toBe('deep inside\n\nafter');
  });

  it('markdown whose raw html nests 10,000 levels converts too', async () => {
    expect(await text('markdown', `# Title\n\n${'<div>'.repeat(10_000)}raw deep${'</div>'.repeat(10_000)}`)).toContain('raw deep');
  });

  it('keeps at most MAX_MARKDOWN_NESTING block markers at the start of a line', () => {
    const quoted = markdownToHtml(`${'> '.repeat(10_000)}quoted deep`);
    expect(quoted).toContain('quoted deep');
    expect(quoted.match(/<blockquote>/g)).toHaveLength(MAX_MARKDOWN_NESTING);
    expect(markdownToHtml(`${'1. '.repeat(5_000)}listed`)).toContain('listed');
    // Shallow documents are untouched.
    const shallow = '> - 1. x\n\n    > not markers (code)\n- a\n  - b\n';
    expect(withinMarkerNesting(shallow)).toBe(shallow);
    expect(withinMarkerNesting(`${'> '.repeat(70)}x`)).toBe(`${'> '.repeat(MAX_MARKDOWN_NESTING)}x`);
  });

  it('lists nested by indentation 10,000 deep stop deepening at MAX_MARKDOWN_INDENT columns', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `${'  '.repeat(i)}- item ${i}`);
    const html = markdownToHtml(`intro\n\n${lines.join('\n')}\n\noutro`);
    expect(html).toContain('item 9999');
    expect(html).toContain('<p>outro</p>');
    expect(html.match(/<ul>/g)!.length).toBeLessThanOrEqual(MAX_MARKDOWN_INDENT / 2 + 1);
    expect(withinIndent(`\t${' '.repeat(300)}x\n  y`)).toBe(`${' '.repeat(MAX_MARKDOWN_INDENT)}x\n  y`);
  });
});
