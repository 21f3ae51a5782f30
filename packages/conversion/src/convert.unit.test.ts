import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { convert, ConversionError } from './index.ts';

const options = { ...DEFAULT_OPTIONS, title: 'T', header_text: 'Header', lang: 'en', dir: 'ltr' };
const md = '# Head\n\nSome **bold** text with a [link](https://example.com).\n\n- [x] done\n- [ ] todo\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ https://auto.example\n\n```js\nlet x = 1 < 2;\n```\n';

describe('markdown conversion', () => {
  it('renders GitHub-flavoured markdown into a script-free article page', () => {
    const result = convert({ input: { kind: 'markdown', text: md }, output: 'html', options });
    expect(result.content).toMatch(/^<!DOCTYPE html>\n<html lang="en" dir="ltr">/);
    expect(result.content).toContain('<h1>T</h1>');
    expect(result.content).toContain('<p class="folio-header">Header</p>');
    expect(result.content).toContain('<table>');
    expect(result.content).toContain('<del>gone</del>');
    expect(result.content).toContain('type="checkbox"');
    expect(result.content).toContain('<a href="https://auto.example">');
    expect(result.content).toContain('let x = 1 &lt; 2;');
    expect(result.document).toMatchObject({ title: 'T', word_count: expect.any(Number) });
  });

  it('renders readable text with bullets and no markup', () => {
    const result = convert({ input: { kind: 'markdown', text: md }, output: 'text', options });
    expect(result.content.startsWith('T\n\nHead\n\nSome bold text with a link.')).toBe(true);
    expect(result.content).toContain('• [x] done\n• [ ] todo');
    expect(result.content).toContain('a\tb');
    expect(result.content).not.toMatch(/<[a-z]/);
    expect(result.content).toContain('let x = 1 < 2;');
  });

  it('returns the article document for json', () => {
    const result = convert({ input: { kind: 'markdown', text: '# A\n\nb c' }, output: 'json', options: { ...options, title: null } });
    const doc = JSON.parse(result.content);
    expect(doc).toMatchObject({ content_markdown: '# A\n\nb c', word_count: 3 });
    expect(doc.content_html).toContain('<h1>A</h1>');
  });

  it('refuses what it cannot convert yet', () => {
    expect(() => convert({ input: { kind: 'url', text: 'https://example.com' }, output: 'html', options })).toThrow(ConversionError);
  });
});
