import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { stashDataUrls } from './data-urls.ts';

const longPng = `data:image/png;base64,${'A'.repeat(5000)}`;

describe('stashDataUrls', () => {
  it('takes long data: addresses out of the markup jsdom parses and leaves short ones', () => {
    const spacer = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    const stash = stashDataUrls(`<img src="${longPng}"><img src="${spacer}"><div style="background:url('${longPng}')"></div>`);
    expect(stash.html).not.toContain('AAAAAAAAAA');
    expect(stash.html).toContain(spacer);
    expect(stash.html.length).toBeLessThan(300);
  });

  it('puts the originals back into serialized HTML, well-formed even when the value held double quotes', () => {
    const svg = `data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(30)}</svg>`;
    const stash = stashDataUrls(`<p><img alt="a" src="${longPng}"><img alt="b" src='${svg}'></p>`);
    const dom = new JSDOM(stash.html);
    const restored = stash.restoreHtml(dom.window.document.body.innerHTML);
    const images = Array.from(JSDOM.fragment(restored).querySelectorAll('img'));
    expect(images.map((img) => img.getAttribute('src'))).toEqual([longPng, svg]);
  });

  it('restores a plain value with its character references decoded', () => {
    const value = `data:image/svg+xml,${'%3Csvg%3E'.repeat(40)}&amp;x`;
    const stash = stashDataUrls(`<meta property="og:image" content="${value}">`);
    const placeholder = new JSDOM(stash.html).window.document.querySelector('meta')!.getAttribute('content')!;
    expect(stash.isPlaceholder(placeholder)).toBe(true);
    expect(stash.restoreText(placeholder)).toBe(value.replace('&amp;', '&'));
  });

  it('cannot be fooled by a page that writes a placeholder of its own', () => {
    const stash = stashDataUrls(`<img src="${longPng}"><a href="data:x-folio-000000000000/0;">link</a>`);
    expect(stash.restoreHtml('<a href="data:x-folio-000000000000/0;">link</a>')).not.toContain('AAAA');
  });
});
