import { describe, expect, it } from 'vitest';
import { parseBase, parseSrcset, safeSrcset, safeUrl } from './url-policy.ts';

describe('safeUrl', () => {
  const base = new URL('https://site.example/a/b.html');

  it('accepts http(s), mailto and tel links and normalises them', () => {
    expect(safeUrl('https://Example.com/x?y#z', 'link', null)).toBe('https://example.com/x?y#z');
    expect(safeUrl('http://example.com', 'link', null)).toBe('http://example.com/');
    expect(safeUrl('mailto:someone@example.com', 'link', null)).toBe('mailto:someone@example.com');
    expect(safeUrl('tel:+44-20', 'link', null)).toBe('tel:+44-20');
  });

  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/x',
    'blob:https://example.com/uuid',
    'about:blank',
  ])('refuses %j as a link and as a resource', (raw) => {
    expect(safeUrl(raw, 'link', base)).toBeNull();
    expect(safeUrl(raw, 'resource', base)).toBeNull();
    expect(safeUrl(raw, 'image', base)).toBeNull();
  });

  it('allows data: image addresses for images only', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(safeUrl(png, 'image', null)).toBe(png);
    expect(safeUrl('data:image/svg+xml,%3Csvg%3E', 'image', null)).toBe('data:image/svg+xml,%3Csvg%3E');
    expect(safeUrl(png, 'resource', null)).toBeNull();
    expect(safeUrl(png, 'link', null)).toBeNull();
    expect(safeUrl('data:image,abc', 'image', null)).toBeNull();
  });

  it('resolves relative addresses against the base, and keeps them as written without one', () => {
    expect(safeUrl('../c/d.png', 'image', base)).toBe('https://site.example/c/d.png');
    expect(safeUrl('//cdn.example/x.png', 'image', base)).toBe('https://cdn.example/x.png');
    expect(safeUrl('../c/d.png', 'image', null)).toBe('../c/d.png');
    expect(safeUrl('  x.html  ', 'link', base)).toBe('https://site.example/a/x.html');
  });

  it('keeps fragment-only links as they are, even with a base', () => {
    expect(safeUrl('#fn-1', 'link', base)).toBe('#fn-1');
    expect(safeUrl('#fn-1', 'image', base)).toBe('https://site.example/a/b.html#fn-1');
  });

  it('drops empty addresses', () => {
    expect(safeUrl('', 'link', base)).toBeNull();
    expect(safeUrl(' \t ', 'image', base)).toBeNull();
  });
});

describe('parseBase', () => {
  it('accepts only absolute http(s) bases', () => {
    expect(parseBase('https://example.com/x')?.href).toBe('https://example.com/x');
    expect(parseBase('javascript:alert(1)')).toBeNull();
    expect(parseBase('/relative')).toBeNull();
    expect(parseBase('data:text/html,x')).toBeNull();
    expect(parseBase(null)).toBeNull();
    expect(parseBase(undefined)).toBeNull();
  });
});

describe('srcset', () => {
  it('parses candidates the way the HTML standard does', () => {
    expect(parseSrcset(' a.png 1x,b.png  2x , c,d.png 640w, e.png')).toEqual([
      { url: 'a.png', descriptor: '1x' },
      { url: 'b.png', descriptor: '2x' },
      { url: 'c,d.png', descriptor: '640w' },
      { url: 'e.png', descriptor: '' },
    ]);
    expect(parseSrcset('a.png,, b.png,')).toEqual([
      { url: 'a.png', descriptor: '' },
      { url: 'b.png', descriptor: '' },
    ]);
  });

  it('keeps safe candidates only, resolved', () => {
    const base = new URL('https://site.example/a/');
    expect(safeSrcset('x.png 1x, javascript:alert(1) 2x, https://cdn.example/y.png 3x', base)).toBe(
      'https://site.example/a/x.png 1x, https://cdn.example/y.png 3x',
    );
    expect(safeSrcset('x.png 1.5x, y.png 800w', null)).toBe('x.png 1.5x, y.png 800w');
    expect(safeSrcset('x.png bogus(descriptor)', null)).toBeNull();
    expect(safeSrcset('javascript:alert(1)', base)).toBeNull();
    expect(safeSrcset('', base)).toBeNull();
  });
});

describe('addresses built to make the clean-up slow', () => {
  // Each was quadratic while a regular expression retried a long run from each of its characters: 200,000 spaces
  // inside an href took about 40 s. They are done in the time it takes to read them.
  it('strips only the ends of an address with a long run of spaces or controls inside it', () => {
    expect(safeUrl(`  https://e.com/a${' '.repeat(200_000)}b \u0001 `, 'link', null)).toBe(`https://e.com/a${'%20'.repeat(200_000)}b`);
    expect(safeUrl(`https://e.com/a${'\u0001'.repeat(200_000)}b`, 'link', null)).toBe(`https://e.com/a${'%01'.repeat(200_000)}b`);
  });

  it('drops the trailing commas of a srcset candidate with a long run of commas inside it', () => {
    const [candidate] = parseSrcset(`a${','.repeat(200_000)}b,, 2x`);
    expect(candidate!.url).toBe(`a${','.repeat(200_000)}b`);
  });
});
