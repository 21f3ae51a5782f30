import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlePage, type ArticlePageInput } from './article-page.ts';
import { effectsOf, launchBrowser, startCanary, type Canary } from './test-support/browser.ts';

/**
 * The article page in a real Chromium with JavaScript enabled: its Content-Security-Policy stops script and inline
 * styling even in content that was (wrongly) never sanitised, while network images and css_url still load; css_url
 * wins over the service's stylesheet; right-to-left layout follows from logical properties; and every script the
 * service promises is drawn with a Noto face.
 */
let browser: Browser;
let page: Page;
let canary: Canary;

const input = (overrides: Partial<ArticlePageInput>): ArticlePageInput => ({
  title: 'Title',
  contentHtml: '<p>Body.</p>',
  sourceUrl: null,
  headerText: null,
  headerImageUrl: null,
  cssUrl: null,
  lang: null,
  dir: null,
  ...overrides,
});

beforeAll(async () => {
  canary = await startCanary({
    '/user.css': { type: 'text/css', body: 'h1.folio-title { color: rgb(1, 2, 3); } @import url(/imported.css);' },
  });
  browser = await launchBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await canary?.close();
});

describe('the article page in Chromium', () => {
  it('runs no script and applies no inline style from content, but loads images and css_url', async () => {
    const unsanitised = [
      `<script>alert('inline script')</script>`,
      `<script src="${canary.origin}/evil/script.js"></script>`,
      `<img src="x" onerror="alert('handler')">`,
      `<div id="styled" style="background: url(${canary.origin}/evil/style-attribute.png); color: rgb(9, 9, 9)">x</div>`,
      `<style>body { background: url(${canary.origin}/evil/style-element.png) }</style>`,
      `<iframe src="${canary.origin}/evil/frame"></iframe>`,
      `<object data="${canary.origin}/evil/object"></object>`,
      `<img src="${canary.origin}/allowed/photo.png" alt="photo">`,
    ].join('\n');
    canary.hits.length = 0;
    const html = articlePage(
      input({ contentHtml: unsanitised, cssUrl: `${canary.origin}/user.css`, headerImageUrl: `${canary.origin}/allowed/header.png` }),
    );
    const effects = await effectsOf(page, canary, html);
    expect(effects).toEqual({ dialogs: [], navigations: [] });
    expect(canary.hits.filter((hit) => hit.startsWith('/evil/'))).toEqual([]);
    expect(canary.hits).toEqual(expect.arrayContaining(['/user.css', '/allowed/photo.png', '/allowed/header.png']));
    const styledColor = await page.$eval('#styled', (el) => getComputedStyle(el).color);
    expect(styledColor).not.toBe('rgb(9, 9, 9)');
    const photoLoaded = await page.$eval('img[alt=photo]', (img) => (img as HTMLImageElement).naturalWidth);
    expect(photoLoaded).toBe(1);
  });

  it('prints the same PDF from the printed page as from the read page', async () => {
    const content = [
      '<h2>A heading</h2>',
      `<p>${'A paragraph of the article with <a href="https://e.example/x">a link</a> in it. '.repeat(40)}</p>`,
      '<ul><li>one</li><li>two</li></ul>',
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
      '<pre><code>const x = 1;</code></pre>',
    ].join('\n');
    // Byte for byte, but for the time it was made (to the second) and the ids by which the tags' table cells name
    // their headers (they number the DOM nodes the tab has made so far).
    const pdfOf = async (html: string) => {
      await effectsOf(page, canary, html);
      const pdf = Buffer.from(await page.pdf({ format: 'Letter', printBackground: true, tagged: true }));
      return pdf
        .toString('latin1')
        .replace(/\/(Creation|Mod)Date \(D:[^)]*\)/g, '/$1Date ()')
        .replace(/\(node\d+\)/g, '(node)');
    };
    const pageOf = (printed: boolean) => articlePage(input({ title: 'Printed', contentHtml: content, printed }));
    const read = await pdfOf(pageOf(false));
    expect(read.length).toBeGreaterThan(1000);
    expect(await pdfOf(pageOf(true))).toBe(read);
    // The print rules did apply (11pt, not the screen's 12pt): the same page printed with no stylesheet differs.
    expect(await pdfOf(pageOf(true).replace(/<style>[\s\S]*<\/style>/, ''))).not.toBe(read);
  });

  it('applies css_url after the service stylesheet', async () => {
    await effectsOf(page, canary, articlePage(input({ cssUrl: `${canary.origin}/user.css` })));
    expect(await page.$eval('h1.folio-title', (h1) => getComputedStyle(h1).color)).toBe('rgb(1, 2, 3)');
    await effectsOf(page, canary, articlePage(input({})));
    expect(await page.$eval('h1.folio-title', (h1) => getComputedStyle(h1).color)).not.toBe('rgb(1, 2, 3)');
  });

  it('lays out right to left with dir=rtl', async () => {
    const content = '<blockquote><p>اقتباس</p></blockquote><ul><li>بند</li></ul><pre><code>const x = 1;</code></pre>';
    await effectsOf(page, canary, articlePage(input({ title: 'عنوان', lang: 'ar', dir: 'rtl', contentHtml: content })));
    const layout = await page.evaluate(() => {
      const quote = getComputedStyle(document.querySelector('blockquote')!);
      const list = getComputedStyle(document.querySelector('ul')!);
      const pre = getComputedStyle(document.querySelector('pre')!);
      const title = document.querySelector('h1')!.getBoundingClientRect();
      const article = document.querySelector('.folio-content')!.getBoundingClientRect();
      return {
        quoteBorderRight: quote.borderRightWidth,
        quoteBorderLeft: quote.borderLeftWidth,
        listPaddingRight: list.paddingRight,
        preDirection: pre.direction,
        titleHugsRight: Math.abs(title.right - article.right) < 1,
      };
    });
    expect(layout).toEqual({
      quoteBorderRight: '3px',
      quoteBorderLeft: '0px',
      listPaddingRight: layout.listPaddingRight,
      preDirection: 'ltr',
      titleHugsRight: true,
    });
    expect(Number.parseFloat(layout.listPaddingRight)).toBeGreaterThan(10);
  });

  /** The platform fonts Chromium used to draw each `#id` element's text. */
  async function fontsOf(ids: string[]): Promise<Record<string, string[]>> {
    const client = await page.createCDPSession();
    try {
      await client.send('DOM.enable');
      await client.send('CSS.enable');
      const { root } = await client.send('DOM.getDocument');
      const families: Record<string, string[]> = {};
      for (const id of ids) {
        const { nodeId } = await client.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${id}` });
        const { fonts } = await client.send('CSS.getPlatformFontsForNode', { nodeId });
        families[id] = fonts.map((font) => font.familyName).sort();
      }
      return families;
    } finally {
      await client.detach();
    }
  }

  it('draws Latin, Cyrillic, Greek, CJK, Arabic and Hebrew text with Noto faces', async () => {
    const samples: Record<string, string> = {
      latin: 'The quick brown fox',
      cyrillic: 'Съешь же ещё этих мягких булок',
      greek: 'Γαζέες καὶ μυρτιὲς',
      cjk: '我能吞下玻璃而不伤身体',
      arabic: 'أنا قادر على أكل الزجاج',
      hebrew: 'אני יכול לאכול זכוכית',
    };
    const content = Object.entries(samples).map(([id, text]) => `<p id="${id}">${text}</p>`).join('');
    await effectsOf(page, canary, articlePage(input({ contentHtml: content })));
    // Spaces in Arabic and Hebrew text come from the first face of the stack, which is fine.
    expect(await fontsOf(Object.keys(samples))).toEqual({
      latin: ['Noto Serif'],
      cyrillic: ['Noto Serif'],
      greek: ['Noto Serif'],
      cjk: ['Noto Serif CJK SC'],
      arabic: ['Noto Naskh Arabic', 'Noto Serif'],
      hebrew: ['Noto Serif', 'Noto Serif Hebrew'],
    });
  });

  it('picks the regional CJK face from the page language', async () => {
    const content = '<p id="text">私はガラスを食べられます</p>';
    await effectsOf(page, canary, articlePage(input({ lang: 'ja', contentHtml: content })));
    expect(await fontsOf(['text'])).toEqual({ text: ['Noto Serif CJK JP'] });
    await effectsOf(page, canary, articlePage(input({ lang: 'ko', contentHtml: '<p id="text">나는 유리를 먹을 수 있어요</p>' })));
    expect(await fontsOf(['text'])).toEqual({ text: ['Noto Serif', 'Noto Serif CJK KR'] }); // spaces from the first face
  });
});
