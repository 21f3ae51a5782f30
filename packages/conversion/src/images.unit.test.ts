import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { solidPng } from '@folio/pdf/test-support/png';
import { sanitizeHtml } from '@folio/article-html';
import { prepare } from './convert.ts';
import { imageType, settleImages } from './images.ts';

const PNG = solidPng(24, 16, [30, 90, 200]);
const SVG = Buffer.from('<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>');

/** A site as the fetcher sees it: what each address gives (bytes, nothing, an error, or no answer at all). */
function site(answers: Record<string, Buffer | null | 'throws' | 'hangs'>) {
  const asked: string[] = [];
  const fetchImage = async (url: string) => {
    asked.push(url);
    const answer = answers[url];
    if (answer === 'throws') throw new Error('connection refused');
    if (answer === 'hangs') return new Promise<never>(() => {});
    return answer ? { data: answer, contentType: 'image/png' } : null;
  };
  return { fetchImage, asked };
}

const FIGURES = `<p>Before.</p>
<figure><img src="https://pics.example/good.png" alt="The river at noon"><figcaption>The river at noon</figcaption></figure>
<figure><img src="https://pics.example/missing.png" alt="The bridge"><figcaption>The bridge</figcaption></figure>
<figure><img src="https://private.example/refused.png" alt="The mill"><figcaption>The mill</figcaption></figure>
<figure><img src="https://pics.example/slow.png" alt="The weir"><figcaption>The weir</figcaption></figure>
<figure><img src="https://pics.example/page.png" alt="The lock"><figcaption>The lock</figcaption></figure>
<p>After.</p>`;

const ANSWERS = {
  'https://pics.example/good.png': PNG,
  'https://pics.example/missing.png': null,
  'https://private.example/refused.png': 'throws',
  'https://pics.example/slow.png': 'hangs',
  'https://pics.example/page.png': Buffer.from('<!doctype html><title>Not found</title><p>Sorry'),
} as const;

describe('settleImages: the images of an article whose bytes arrived, and nothing in place of the others', () => {
  it('drops every image that never arrived — 404, refused, too slow, not an image — and keeps its caption', async () => {
    const { fetchImage } = site(ANSWERS);
    const settled = await settleImages(FIGURES, { fetchImage, inline: false, budgetMs: 200 });
    const images = [...settled.contentHtml.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
    expect(images).toEqual(['<img src="https://pics.example/good.png" alt="The river at noon">']);
    for (const caption of ['The river at noon', 'The bridge', 'The mill', 'The weir', 'The lock']) {
      expect(settled.contentHtml).toContain(`<figcaption>${caption}</figcaption>`);
    }
    expect(settled.contentHtml).not.toMatch(/alt="The (bridge|mill|weir|lock)"/);
    expect([...settled.images.keys()]).toEqual(['https://pics.example/good.png']);
    expect(settled.images.get('https://pics.example/good.png')).toEqual({ data: PNG, mediaType: 'image/png' });
  });

  it('puts the bytes in the page as data: addresses when asked (the pdf), fetching each address once', async () => {
    const { fetchImage, asked } = site({ 'https://pics.example/good.png': PNG, 'https://pics.example/missing.png': null });
    const html = `${FIGURES.split('\n').slice(0, 3).join('\n')}<p><img src="https://pics.example/good.png" alt="again"></p>`;
    const settled = await settleImages(html, { fetchImage, inline: true });
    const data = `data:image/png;base64,${PNG.toString('base64')}`;
    expect(settled.contentHtml.split(`src="${data}"`)).toHaveLength(3);
    expect(settled.contentHtml).not.toContain('pics.example');
    expect(asked.sort()).toEqual(['https://pics.example/good.png', 'https://pics.example/missing.png']);
  });

  it('leaves the address to the browser beyond the inlining cap', async () => {
    const { fetchImage } = site({ 'https://pics.example/good.png': PNG });
    const settled = await settleImages(FIGURES.split('\n')[1]!, { fetchImage, inline: true, maxInlineBytes: PNG.byteLength - 1 });
    expect(settled.contentHtml).toContain('src="https://pics.example/good.png"');
  });

  it('shows exactly the address it fetched: no srcset, sizes or other sources the browser could choose and fail on', async () => {
    const { fetchImage } = site({ 'https://pics.example/good.png': PNG });
    const html =
      '<picture><source srcset="https://pics.example/good.webp" type="image/webp"><img src="https://pics.example/good.png" srcset="https://pics.example/good-2x.png 2x" sizes="50vw" alt="x"></picture>' +
      '<p><img srcset="https://pics.example/good.png 1x, https://pics.example/big.png 2x" alt="y"></p>';
    const settled = await settleImages(html, { fetchImage, inline: false });
    expect(settled.contentHtml).toBe(
      '<picture><img src="https://pics.example/good.png" alt="x"></picture><p><img alt="y" src="https://pics.example/good.png"></p>',
    );
  });

  it('removes what held only the image (a picture, a link), and a figure left with nothing', async () => {
    const { fetchImage } = site({});
    const html =
      '<p>See <a href="https://pics.example/full"><picture><source srcset="https://pics.example/a.webp"><img src="https://pics.example/a.png" alt="a"></picture></a> here.</p>' +
      '<p><a href="https://pics.example/b">the photo <img src="https://pics.example/b.png" alt="b"></a></p>' +
      '<figure><img src="https://pics.example/c.png" alt="c"></figure><p><img alt="no address"></p>';
    const settled = await settleImages(html, { fetchImage, inline: false });
    expect(settled.contentHtml).toBe('<p>See  here.</p><p><a href="https://pics.example/b">the photo </a></p><p></p>');
  });

  it('leaves data: images and markup without images untouched', async () => {
    const { fetchImage, asked } = site({});
    const html = `<p><img src="data:image/png;base64,${PNG.toString('base64')}" alt="inline"></p>`;
    expect((await settleImages(html, { fetchImage, inline: true })).contentHtml).toBe(html);
    expect((await settleImages('<p>No images.</p>', { fetchImage, inline: true })).contentHtml).toBe('<p>No images.</p>');
    expect(asked).toEqual([]);
    // An engine built without a fetcher tried nothing, so it decides nothing.
    expect((await settleImages(FIGURES, { fetchImage: undefined, inline: true })).contentHtml).toBe(FIGURES);
  });

  it('sanitises what it changed again: nothing the sanitiser would remove survives', async () => {
    const { fetchImage } = site({});
    // Markup that did not come from the sanitiser (it always does in the engine) still comes out clean.
    const settled = await settleImages('<p onclick="alert(1)">x<img src="https://pics.example/gone.png"><script>alert(2)</script></p>', {
      fetchImage,
      inline: false,
    });
    expect(settled.contentHtml).toBe('<p>x</p>');
  });

  it('gives what DOMPurify gives, whichever of the sanitiser\'s paths the changed markup takes', async () => {
    const { fetchImage } = site(ANSWERS);
    const plain = (await settleImages(FIGURES, { fetchImage, inline: false, budgetMs: 200 })).contentHtml; // the fast path's kind of markup
    const rich = (
      await settleImages(
        `<picture><source srcset="https://pics.example/good.webp"><img src="https://pics.example/good.png" alt="a"></picture>
<p><svg viewBox="0 0 2 2"><circle r="1"></circle></svg><img src="https://pics.example/missing.png"> text</p>`,
        { fetchImage, inline: false, budgetMs: 200 },
      )
    ).contentHtml;
    expect(plain).not.toContain('missing.png');
    expect(rich).toContain('<picture><img src="https://pics.example/good.png" alt="a"></picture>');
    for (const html of [plain, rich]) expect(sanitizeHtml(html, { baseUrl: null })).toBe(html);
  });

  it('recognises the images a browser shows by their bytes, and nothing else', () => {
    expect(imageType(PNG)).toBe('image/png');
    expect(imageType(SVG)).toBe('image/svg+xml');
    expect(imageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(imageType(Buffer.from('<!doctype html><svg></svg>'))).toBeNull();
    expect(imageType(PNG.subarray(0, 4))).toBeNull();
  });

  it('reads an SVG past its declaration, comments and doctype, each ended where a parser ends it', () => {
    expect(imageType(Buffer.from('\uFEFF <?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"> <!-- a --><!----><SVG\nwidth="1">'))).toBe('image/svg+xml');
    expect(imageType(Buffer.from('<!-- a --> text --> <svg></svg>'))).toBeNull();
    expect(imageType(Buffer.from('<!-- never closed <svg></svg>'))).toBeNull();
    expect(imageType(Buffer.from('<?xml version="1.0"?><svgs></svgs>'))).toBeNull();
  });

  it('tells bytes built to make a pattern backtrack from an SVG at once', () => {
    // A run of comments and doctypes with no root after them: the regular expression this replaced took 55 s on
    // these bytes cut at 435, and about twice as long with every comment more.
    const bytes = Buffer.from(('<!DOCTYPE SVG>' + '\t<!---->\t<!----><!DOCTYPE SVG>'.repeat(40) + '\t').slice(0, 1024));
    expect(imageType(bytes)).toBeNull();
    expect(imageType(Buffer.concat([bytes.subarray(0, 1000), Buffer.from('<svg>')]))).toBeNull();
  });
});

describe('every output but text, markdown and json drops the images that never arrived', () => {
  const html = `<h2>Story</h2>${FIGURES}`;
  // Everything but the address that never answers, which would hold the test for the whole budget.
  const { 'https://pics.example/slow.png': _slow, ...answers } = ANSWERS;
  const fetcher = { fetch: async () => Promise.reject(new Error('no pages here')), ...site(answers) };

  it('html and pdf (the page printed) keep the caption and show no broken image', async () => {
    for (const output of ['html', 'pdf'] as const) {
      const prepared = await prepare({ input: { kind: 'html', text: html }, output, options: DEFAULT_OPTIONS }, { fetcher });
      const page = prepared.kind === 'print' ? prepared.html : prepared.kind === 'content' ? prepared.content : '';
      expect(page.match(/<img\b/g)).toHaveLength(1);
      expect(page).toContain('<figcaption>The bridge</figcaption>');
      expect(page).not.toContain('alt="The bridge"');
      expect(page).toContain('<figcaption>The weir</figcaption>');
    }
  });
});
