import { describe, expect, it } from 'vitest';
import { defaultOutFile, inputKind } from './convert.ts';
import { UsageError } from './usage.ts';

describe('folio convert: what the argument is', () => {
  it('sends web addresses as url, files as html or markdown by extension', () => {
    expect(inputKind('https://example.com/a')).toBe('url');
    expect(inputKind('HTTP://example.com/a')).toBe('url');
    expect(inputKind('notes.md')).toBe('markdown');
    expect(inputKind('dir/Notes.MARKDOWN')).toBe('markdown');
    expect(inputKind('page.htm')).toBe('html');
    expect(inputKind('page.html')).toBe('html');
  });

  it('lets --as settle a file whose extension says neither, and refuses what it cannot tell', () => {
    expect(inputKind('README', 'markdown')).toBe('markdown');
    expect(inputKind('notes.md', 'html')).toBe('html');
    expect(() => inputKind('README')).toThrow(UsageError);
    expect(() => inputKind('README', 'pdf')).toThrow('--as must be html or markdown');
    expect(() => inputKind('https://example.com/', 'html')).toThrow(UsageError);
  });
});

describe('folio convert: where the result goes without --out', () => {
  it('names a pdf or docx after its input', () => {
    expect(defaultOutFile('notes/week 1.md', 'markdown', 'pdf')).toBe('week-1.pdf');
    expect(defaultOutFile('page.html', 'html', 'docx')).toBe('page.docx');
    expect(defaultOutFile('https://example.com/news/story.html?x=1', 'url', 'pdf')).toBe('story.pdf');
    expect(defaultOutFile('https://example.com/news/caf%C3%A9/', 'url', 'pdf')).toBe('café.pdf');
    expect(defaultOutFile('https://example.com/', 'url', 'pdf')).toBe('example.com.pdf');
  });

  it('never names a file outside the current folder or a hidden one', () => {
    expect(defaultOutFile('https://example.com/a%2F..%2F..%2Fetc', 'url', 'pdf')).toBe('a-etc.pdf');
    expect(defaultOutFile('https://example.com/..%2F.bashrc.html', 'url', 'pdf')).toBe('bashrc.pdf');
    expect(defaultOutFile('https://example.com/%2E%2E', 'url', 'pdf')).toBe('example.com.pdf');
  });

  it('sends text outputs to stdout', () => {
    for (const output of ['markdown', 'html', 'text', 'json'] as const) expect(defaultOutFile('notes.md', 'markdown', output)).toBeUndefined();
  });
});
