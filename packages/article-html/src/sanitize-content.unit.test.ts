import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '@folio/dom';
import { sanitizeContent, sanitizeHtml } from './sanitize.ts';
import { unsafeParts } from './test-support/inert.ts';
import { PAYLOADS } from './test-support/xss-payloads.ts';

/**
 * In-place sanitising (what the engine does to an extracted article) must leave exactly what the string path leaves:
 * the same rules, hooks and address policy, on a tree parsed by the same parser.
 */
const BASE = 'https://site.example/articles/one.html';

/** The payload inside a container, as extraction hands content over; the container's outer HTML after sanitising. */
function inPlace(html: string, options: Parameters<typeof sanitizeContent>[1] = { baseUrl: BASE }): string {
  const document = parseHtmlDocument(`<!DOCTYPE html><body><div id="content">${html}</div>`, BASE);
  const root = document.getElementById('content')!;
  sanitizeContent(root, options);
  return root.innerHTML;
}

/** The string path's result for the payload inside the same container, without the container. */
const throughString = (html: string) =>
  sanitizeHtml(`<div id="content">${html}</div>`, { baseUrl: BASE }).replace(/^<div id="content">/, '').replace(/<\/div>$/, '');

describe('sanitizeContent: in place, as the string path', () => {
  it.each(PAYLOADS)('leaves %s inert, exactly as sanitizeHtml does', (_name, html) => {
    const clean = inPlace(html);
    expect(unsafeParts(clean)).toEqual([]);
    // Compared in the same parsing context: inside a <div>, where a leading <noscript> is not head content.
    expect(clean).toBe(throughString(html));
  });

  it('judges a placeholder as the address it stands for, and keeps the address', () => {
    const image = `data:image/png;base64,${'A'.repeat(600)}`;
    const restore = (value: string) => value.replace('data:x-test/0;', image).replace('data:x-test/1;', 'javascript:alert(1)');
    const clean = inPlace('<p><img src="data:x-test/0;" alt="chart"><a href="data:x-test/1;">link</a></p>', { baseUrl: BASE, restore });
    expect(clean).toBe(`<p><img src="${image}" alt="chart"><a>link</a></p>`);
  });

  it('makes addresses absolute against the base and keeps the container', () => {
    const document = parseHtmlDocument('<div id="c"><a href="/b">b</a><script>x()</script></div>', BASE);
    const root = document.getElementById('c')!;
    sanitizeContent(root, { baseUrl: BASE });
    expect(document.body.innerHTML).toBe('<div id="c"><a href="https://site.example/b">b</a></div>');
  });
});
