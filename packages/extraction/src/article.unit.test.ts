import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle, htmlToText, NoArticleError } from './index.ts';
import { page, prose } from './test-pages.ts';

const URL = 'https://news.example.com/2024/05/sea-wall.html';
const imagesOf = (html: string) => Array.from(JSDOM.fragment(html).querySelectorAll('img'));

describe('extractArticle: metadata', () => {
  it('reads author, date and image from meta tags, and names the page', () => {
    const article = extractArticle(
      page({
        head: `<meta name="author" content="Ada Lovelace">
          <meta property="article:published_time" content="2024-05-02T09:30:00+0200">
          <meta property="og:image" content="/img/lead.jpg">
          <meta name="description" content="The harbour commission weighs a plan.">
          <link rel="canonical" href="https://news.example.com/sea-wall">`,
      }),
      { url: URL },
    );
    expect(article.title).toBe('Sea wall plan goes to a vote');
    expect(article.author).toBe('Ada Lovelace');
    expect(article.date).toBe('2024-05-02T09:30:00+02:00');
    expect(article.image).toBe('https://news.example.com/img/lead.jpg');
    expect(article.url).toBe('https://news.example.com/sea-wall');
    expect(article.site).toBe('news.example.com');
    expect(article.excerpt).toBe('The harbour commission weighs a plan.');
    expect(article.wordCount).toBeGreaterThan(300);
  });

  it('prefers JSON-LD for author, date and image', () => {
    const jsonLd = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'The Harbour Gazette' },
        {
          '@type': 'NewsArticle',
          headline: 'Sea wall plan goes to a vote',
          author: [{ '@type': 'Person', name: 'Grace Hopper' }, { '@type': 'Person', name: 'Alan Turing' }],
          datePublished: '2024-05-03T08:00:00Z',
          image: { '@type': 'ImageObject', url: 'https://cdn.example.com/lead.png' },
        },
      ],
    });
    const article = extractArticle(
      page({ head: `<meta name="author" content="Someone Else"><script type="application/ld+json">${jsonLd}</script>` }),
      { url: URL },
    );
    expect(article.author).toBe('Grace Hopper, Alan Turing');
    expect(article.date).toBe('2024-05-03T08:00:00Z');
    expect(article.image).toBe('https://cdn.example.com/lead.png');
  });

  it('takes the date from <time datetime> when nothing else states it, and the lead image from the article', () => {
    const article = extractArticle(
      page({
        before: '<p class="meta">Published <time datetime="2024-04-30">April 30</time></p>',
        article: `<figure><img src="/photos/wall.jpg" alt="The wall"></figure>${prose(6)}`,
      }),
      { url: URL },
    );
    expect(article.date).toBe('2024-04-30');
    expect(article.image).toBe('https://news.example.com/photos/wall.jpg');
    expect(article.url).toBe(URL);
  });

  it('leaves what the page does not state empty', () => {
    const article = extractArticle(page(), { url: null });
    expect(article.author).toBeNull();
    expect(article.date).toBeNull();
    expect(article.image).toBeNull();
    expect(article.url).toBeNull();
    expect(article.site).toBeNull();
  });
});

describe('extractArticle: images', () => {
  it('resolves lazy images (data-src, data-srcset, srcset only, picture, noscript) to absolute src', () => {
    const spacer = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    const article = extractArticle(
      page({
        article: `${prose(2)}
          <figure><img class="lazy" src="${spacer}" data-src="/img/one.jpg" alt="one"></figure>
          ${prose(1, 1)}
          <figure><img data-srcset="/img/two-400.jpg 400w, /img/two-800.jpg 800w" alt="two"></figure>
          ${prose(1, 2)}
          <figure><img srcset="three-1x.jpg 1x, three-2x.jpg 2x" alt="three"></figure>
          ${prose(1, 3)}
          <figure><picture><source srcset="/img/four.webp 1200w" type="image/webp"><img alt="four"></picture></figure>
          ${prose(1, 4)}
          <figure><img src="${spacer}" alt="five"><noscript><img src="/img/five.jpg" alt="five"></noscript></figure>
          ${prose(2, 5)}`,
      }),
      { url: URL },
    );
    const sources = Object.fromEntries(imagesOf(article.contentHtml).map((img) => [img.getAttribute('alt'), img.getAttribute('src')]));
    expect(sources).toEqual({
      one: 'https://news.example.com/img/one.jpg',
      two: 'https://news.example.com/img/two-800.jpg',
      three: 'https://news.example.com/2024/05/three-2x.jpg',
      four: 'https://news.example.com/img/four.webp',
      five: 'https://news.example.com/img/five.jpg',
    });
    expect(article.contentHtml).not.toContain('R0lGODlh');
  });

  it('keeps data: images intact (they are stashed while jsdom parses and put back after)', () => {
    const png = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'.repeat(20)}==`;
    const svg = `data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${'<rect width="1" height="1"/>'.repeat(20)}</svg>`;
    const html = page({
      article: `${prose(3)}<figure><img src="${png}" alt="png"></figure><figure><img src='${svg}' alt="svg"></figure>${prose(3, 3)}`,
      head: `<meta property="og:image" content="${png}">`,
    });
    const article = extractArticle(html, { url: URL });
    const sources = Object.fromEntries(imagesOf(article.contentHtml).map((img) => [img.getAttribute('alt'), img.getAttribute('src')]));
    expect(sources.png).toBe(png);
    expect(sources.svg).toBe(svg);
    expect(article.image).toBe(png);
    expect(article.contentHtml).not.toContain('x-folio');
  });
});

describe('extractArticle: the title', () => {
  it('is the page\'s heading when the title sets the site\'s name and a section around it', () => {
    const html = page().replace(/<title>[^<]*<\/title>/, '<title>Gazette.com: Sea wall plan goes to a vote: Local</title>');
    expect(extractArticle(html, { url: 'https://www.gazette.com/sea-wall' }).title).toBe('Sea wall plan goes to a vote');
    // Without the site's name in it, the rest may be part of the headline: the title stays as Readability reads it.
    expect(extractArticle(html.replace('Gazette.com: ', ''), { url: 'https://www.gazette.com/sea-wall' }).title)
      .toBe('Sea wall plan goes to a vote: Local');
    // A heading that carries the site's name itself loses it too.
    const named = page().replace('<h1>Sea wall plan goes to a vote</h1>', '<h1>Sea wall plan goes to a vote – Gazette</h1>')
      .replace(/<title>[^<]*<\/title>/, '<title>Sea wall plan goes to a vote – Gazette - Gazette</title>');
    expect(extractArticle(named, { url: 'https://www.gazette.com/sea-wall' }).title).toBe('Sea wall plan goes to a vote');
  });

  it('is not printed again by the head of the content, which repeats it as printed rather than as the page titles it', () => {
    const html = page({ before: '<p>Sea wall plan goes to a vote</p>' })
      .replace(/<title>[^<]*<\/title>/, '<title>Gazette.com: Sea wall plan goes to a vote: Local</title>');
    const article = extractArticle(html, { url: 'https://www.gazette.com/sea-wall' });
    expect(article.title).toBe('Sea wall plan goes to a vote');
    expect(htmlToText(article.contentHtml)).toMatch(/^The harbour commission met on Tuesday/);
  });
});

describe("extractArticle: an article's sections", () => {
  it('keeps sections a theme names for the contents list that skips to them (`skip-item`), and leaves out the skip link', () => {
    // "skip" names a skip link ("Skip to content"), a few words, which goes; a section the contents list skips to
    // holds prose, which stays. Each section here is a fifth of the article, too small a share to be kept as such.
    const topics = ['The wall today', 'What the engineers found', 'What residents said', 'What it will cost', 'What comes next'];
    const sections = topics.map((topic, i) => `<div id="topic${i + 1}" class="skip-item${i % 2 ? ' bg-gray' : ''}">
      <h2>${topic}</h2>${prose(2, i)}</div>`).join('\n');
    const contents = `<div class="table-of-contents"><ul>${topics.map((topic, i) => `<li><a href="#topic${i + 1}">${topic}</a></li>`).join('')}</ul></div>`;
    const html = page({ article: `${contents}${sections}` }).replace('<body>', '<body><a class="skip-link" href="#topic1">Skip to content</a>');
    const text = extractArticle(html, { url: URL }).text;
    for (const topic of topics) expect(text).toContain(`${topic}\n\n`);
    expect(text.match(/The harbour commission met on Tuesday/g)?.length).toBeGreaterThanOrEqual(4);
    expect(text).not.toContain('Skip to content');
  });
});

describe('extractArticle: what the page prints twice', () => {
  it('prints a section the page repeats for another screen width once', () => {
    const section = `<section><h2>What the wall will cost</h2>${prose(2, 2)}</section>`;
    const text = htmlToText(extractArticle(page({ article: `${prose(3)}<div class="wide">${section}</div><div class="narrow">${section}</div>` }), { url: URL }).contentHtml);
    expect(text.split('What the wall will cost')).toHaveLength(2);
    expect(text).toContain('The harbour commission met on Tuesday');
  });
});

describe('extractArticle: pages jsdom cannot parse as they are', () => {
  // jsdom throws "SyntaxError: ")" is expected" on this declaration while parsing the stylesheet.
  const badCss = '@media (min-width: 1px) { p { min-height: calc(100% - (2px) } }';

  it('shows that the CSS really makes jsdom throw', () => {
    expect(() => new JSDOM(`<style>${badCss}</style><p>x</p>`)).toThrow();
  });

  it('still extracts the article', () => {
    const article = extractArticle(page({ head: `<style>${badCss}</style>` }), { url: URL });
    expect(article.title).toBe('Sea wall plan goes to a vote');
    expect(htmlToText(article.contentHtml)).toContain('The harbour commission met on Tuesday');
  });

  it('still extracts it when the stylesheet cannot be cut out safely (it contains "</")', () => {
    const css = `p::after { content: "</b>"; } ${badCss}`;
    const article = extractArticle(page({ head: `<style>${css}</style>`, after: `<style>${css}</style>` }), { url: URL });
    const text = htmlToText(article.contentHtml);
    expect(text).toContain('The harbour commission met on Tuesday');
    expect(text).not.toContain('min-height');
  });

  it('keeps content after a "<script" written inside a comment', () => {
    const article = extractArticle(
      page({ article: `<!-- <script> -->${prose(6)}<script>var x = '<div>';</script><p>The very last paragraph survives, with its words intact.</p>` }),
      { url: URL },
    );
    expect(htmlToText(article.contentHtml)).toContain('The very last paragraph survives');
  });
});

describe('extractArticle: language and direction', () => {
  const arabic = Array.from({ length: 6 }, () =>
    '<p>قالت اللجنة إن الجدار البحري القديم فقد ثلث ارتفاعه، وإن السكان على الواجهة البحرية يرون الماء يقترب من أبوابهم كل عام، وإن التصويت النهائي سيجري الشهر المقبل بعد جلسة استماع عامة في المكتبة.</p>',
  ).join('');
  const hebrew = Array.from({ length: 6 }, () =>
    '<p>הוועדה אמרה כי חומת הים הישנה איבדה שליש מגובהה, וכי התושבים לאורך החוף רואים את המים מתקרבים לדלתותיהם בכל שנה, וההצבעה הסופית תתקיים בחודש הבא לאחר שימוע ציבורי בספרייה.</p>',
  ).join('');

  it('detects Arabic and right-to-left on a page that states neither', () => {
    const article = extractArticle(page({ article: arabic }), { url: URL });
    expect(article.lang).toBe('ar');
    expect(article.dir).toBe('rtl');
  });

  it('detects Hebrew as right-to-left, and English as left-to-right', () => {
    const he = extractArticle(page({ article: hebrew }), { url: URL });
    expect([he.lang, he.dir]).toEqual(['he', 'rtl']);
    const en = extractArticle(page(), { url: URL });
    expect([en.lang, en.dir]).toEqual(['en', 'ltr']);
  });

  it("uses the page's own lang and dir when it states them", () => {
    const article = extractArticle(page({ htmlAttributes: 'lang="fr_CA" dir="rtl"' }), { url: URL });
    expect(article.lang).toBe('fr-CA');
    expect(article.dir).toBe('rtl');
  });
});

describe('extractArticle: no article', () => {
  it('throws NoArticleError for an empty page and for a page of navigation only', () => {
    expect(() => extractArticle('<html><body></body></html>', { url: URL })).toThrow(NoArticleError);
    expect(() => extractArticle('', { url: URL })).toThrow(NoArticleError);
    const shell = '<html><body><nav><a href="/a">A</a><a href="/b">B</a></nav><script>render()</script></body></html>';
    let error: unknown;
    try {
      extractArticle(shell, { url: URL });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NoArticleError);
    expect((error as NoArticleError).code).toBe('parse_failed');
  });
});

describe('extractArticle: untrusted HTML stays inert', () => {
  it('runs no script and fetches nothing the page references', async () => {
    const requests: string[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      requests.push(req.url ?? '');
      res.end('/* canary */');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const html = page({
        head: `<link rel="stylesheet" href="${origin}/style.css"><script src="${origin}/script.js"></script>
          <script>globalThis.folioExtractionPwned = true;</script>`,
        article: `${prose(6)}<img src="${origin}/img.png" onerror="globalThis.folioExtractionPwned = true">
          <iframe src="${origin}/frame.html"></iframe><video poster="${origin}/poster.jpg"></video>
          <object data="${origin}/object.swf"></object><div style="background: url(${origin}/bg.png)">x</div>`,
      });
      const article = extractArticle(html, { url: `${origin}/page.html` });
      expect(article.wordCount).toBeGreaterThan(100);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(requests).toEqual([]);
      expect((globalThis as Record<string, unknown>).folioExtractionPwned).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
