import { createHash } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { articlePage, type ArticlePageInput } from './article-page.ts';
import { ARTICLE_PAGE_CSP } from './content-security-policy.ts';

const input = (overrides: Partial<ArticlePageInput> = {}): ArticlePageInput => ({
  title: 'A title',
  contentHtml: '<p>Body text.</p>',
  sourceUrl: null,
  headerText: null,
  headerImageUrl: null,
  cssUrl: null,
  lang: null,
  dir: null,
  ...overrides,
});

const parse = (html: string) => new JSDOM(html).window.document;

describe('articlePage: document shape', () => {
  it('is a complete UTF-8 document: doctype, charset first, title, the content inside the article', () => {
    const html = articlePage(input());
    expect(html.startsWith('<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n')).toBe(true);
    const doc = parse(html);
    expect(doc.title).toBe('A title');
    expect(doc.querySelector('article h1.folio-title')?.textContent).toBe('A title');
    expect(doc.querySelector('article .folio-content')?.innerHTML.trim()).toBe('<p>Body text.</p>');
  });

  it('has no script anywhere, and a policy that forbids it', () => {
    const html = articlePage(
      input({ sourceUrl: 'https://e.example/a', headerText: 'h', headerImageUrl: 'https://e.example/h.png', cssUrl: 'https://e.example/s.css' }),
    );
    expect(html).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
    const csp = parse(html).querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
    expect(csp).toBe(ARTICLE_PAGE_CSP);
    const directives = new Map(csp!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('img-src')).toEqual(['http:', 'https:', 'data:']);
    expect(directives.get('style-src')).toContain('https:');
    expect(directives.get('style-src')).not.toContain("'unsafe-inline'");
  });

  it('lets its own inline stylesheet through the policy by hash, and nothing else inline', () => {
    const hashes = [false, true].map((printed) => {
      const doc = parse(articlePage(input({ printed })));
      const styles = doc.querySelectorAll('style');
      expect(styles).toHaveLength(1);
      return `'sha256-${createHash('sha256').update(styles[0]!.textContent!, 'utf8').digest('base64')}'`;
    });
    // One policy for both pages (a print tab keeps the first page's policy): the read page's and the printed page's.
    expect(ARTICLE_PAGE_CSP).toContain(`style-src ${hashes[0]} ${hashes[1]} http: https:`);
    expect(hashes[0]).not.toBe(hashes[1]);
  });
});

describe('articlePage: the printed page', () => {
  const stylesheetOf = (printed: boolean) => parse(articlePage(input({ printed }))).querySelector('style')!.textContent!;

  it('carries the print rules unconditionally, the read page inside @media print, and the rest alike', () => {
    const read = stylesheetOf(false);
    const printed = stylesheetOf(true);
    expect(printed).not.toContain('@media print');
    const block = /\n\n@media print \{\n([\s\S]*)\n\}$/.exec(read);
    expect(block).not.toBeNull();
    const rules = block![1]!.replace(/^ {2}/gm, '');
    expect(rules).toContain('body { font-size: 11pt; }');
    expect(printed).toBe(`${read.slice(0, block!.index)}\n\n${rules}`);
  });

  it('is the same page otherwise', () => {
    const page = (printed: boolean) =>
      articlePage(input({ printed, sourceUrl: 'https://e.example/a', lang: 'en' })).replace(/<style>[\s\S]*<\/style>/, '');
    expect(page(true)).toBe(page(false));
  });
});

describe('articlePage: stylesheets', () => {
  it('puts css_url after the service stylesheet, so it wins', () => {
    const doc = parse(articlePage(input({ cssUrl: 'https://styles.example/print.css?v=1&x=2' })));
    const sheets = Array.from(doc.head.querySelectorAll('style, link[rel=stylesheet]'));
    expect(sheets.map((el) => el.tagName)).toEqual(['STYLE', 'LINK']);
    expect(sheets[1]!.getAttribute('href')).toBe('https://styles.example/print.css?v=1&x=2');
  });

  it('leaves out a css_url that is not an absolute http(s) address', () => {
    for (const cssUrl of ['javascript:alert(1)', 'data:text/css,body{}', '/relative.css', 'not a url']) {
      expect(parse(articlePage(input({ cssUrl }))).querySelector('link')).toBeNull();
    }
  });

  it('covers every script the service promises, and prints sensibly', () => {
    const css = parse(articlePage(input())).querySelector('style')!.textContent!;
    for (const family of ['Noto Serif', 'Noto Serif CJK SC', 'Noto Naskh Arabic', 'Noto Serif Hebrew', 'Noto Sans Mono']) {
      expect(css).toContain(`"${family}"`);
    }
    expect(css).toMatch(/@media print/);
    expect(css).toMatch(/break-after: avoid/);
    expect(css).toMatch(/padding-inline-start/);
    expect(css).toMatch(/white-space: pre-wrap/);
    // Paper size and margins are the renderer's; the page numbers in the bottom margin are the page's own.
    expect(css).not.toMatch(/@page\s*\{[^@]*(size|margin)\s*:/);
    expect(css).toMatch(/@bottom-center\s*\{[^}]*counter\(page\)[^}]*counter\(pages\)/);
    expect(css).not.toMatch(/url\(|@import/);
  });
});

describe('articlePage: html element', () => {
  it('carries lang and dir', () => {
    const doc = parse(articlePage(input({ lang: 'ar', dir: 'rtl' })));
    expect(doc.documentElement.getAttribute('lang')).toBe('ar');
    expect(doc.documentElement.getAttribute('dir')).toBe('rtl');
    expect(parse(articlePage(input({ lang: 'zh-Hant-TW', dir: 'ltr' }))).documentElement.getAttribute('lang')).toBe('zh-Hant-TW');
  });

  it('leaves them off when unknown or malformed', () => {
    const plain = parse(articlePage(input()));
    expect(plain.documentElement.hasAttribute('lang')).toBe(false);
    expect(plain.documentElement.hasAttribute('dir')).toBe(false);
    const bad = parse(articlePage(input({ lang: 'en" onload="alert(1)', dir: 'auto' as 'ltr' })));
    expect(bad.documentElement.hasAttribute('lang')).toBe(false);
    expect(bad.documentElement.hasAttribute('dir')).toBe(false);
    expect(bad.documentElement.hasAttribute('onload')).toBe(false);
  });
});

describe('articlePage: header and source lines', () => {
  const full = input({
    title: 'The <b>title</b> & "more"',
    headerText: 'Printed for <you> & yours',
    headerImageUrl: 'https://brand.example/logo.png?a=1&b=2',
    sourceUrl: 'https://news.example/story?id=1&x="y"',
    meta: { site: 'news.example', author: 'Ada <Lovelace>', date: '2024-05-01T10:00:00Z' },
  });

  it('orders header image, header text, title, source line, then the content', () => {
    const doc = parse(articlePage(full));
    const order = Array.from(doc.querySelectorAll('.folio-header-image, .folio-header-text, h1, .folio-source, .folio-content'));
    expect(order.map((el) => el.className)).toEqual(['folio-header-image', 'folio-header-text', 'folio-title', 'folio-source', 'folio-content']);
  });

  it('escapes everything the user supplied', () => {
    const html = articlePage(full);
    const doc = parse(html);
    expect(doc.querySelector('h1')!.textContent).toBe('The <b>title</b> & "more"');
    expect(doc.querySelector('h1 b')).toBeNull();
    expect(doc.title).toBe('The <b>title</b> & "more"');
    expect(doc.querySelector('.folio-header-text')!.textContent).toBe('Printed for <you> & yours');
    expect(doc.querySelector('.folio-header-image')!.getAttribute('src')).toBe('https://brand.example/logo.png?a=1&b=2');
    expect(doc.querySelector('.folio-author')!.textContent).toBe('Ada <Lovelace>');
    expect(html).toContain('The &lt;b&gt;title&lt;/b&gt; &amp; &quot;more&quot;');
    expect(doc.querySelectorAll('b, you, lovelace')).toHaveLength(0);
  });

  it('shows site, author, date and a link to the source under the title', () => {
    const source = parse(articlePage(full)).querySelector('.folio-source')!;
    expect(Array.from(source.children).map((el) => el.className || el.tagName)).toEqual([
      'folio-site',
      'folio-author',
      'TIME',
      'folio-source-link',
    ]);
    expect(source.querySelector('time')!.getAttribute('datetime')).toBe('2024-05-01T10:00:00Z');
    expect(source.querySelector('time')!.textContent).toBe('2024-05-01');
    const link = source.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://news.example/story?id=1&x=%22y%22');
    expect(link.textContent).toBe('https://news.example/story?id=1&x="y"');
  });

  it('shows a date it cannot read as it is', () => {
    const source = parse(articlePage(input({ meta: { date: 'Spring 2024' } }))).querySelector('.folio-source')!;
    expect(source.textContent).toBe('Spring 2024');
    expect(source.querySelector('time')).toBeNull();
  });

  it('never links a source that is not http(s), and never loads a header image from elsewhere', () => {
    const doc = parse(articlePage(input({ sourceUrl: 'javascript:alert(1)', headerImageUrl: 'javascript:alert(1)' })));
    expect(doc.querySelector('.folio-source a')).toBeNull();
    expect(doc.querySelector('.folio-source')!.textContent).toBe('javascript:alert(1)');
    expect(doc.querySelector('img')).toBeNull();
    const embedded = parse(articlePage(input({ headerImageUrl: 'data:image/png;base64,iVBORw0KGgo=' })));
    expect(embedded.querySelector('.folio-header-image')!.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('leaves out what was not given', () => {
    const doc = parse(articlePage(input({ title: '  ' })));
    expect(doc.querySelector('header')).toBeNull();
    expect(doc.querySelector('h1')).toBeNull();
    expect(doc.title).toBe('');
    const onlyTitle = parse(articlePage(input()));
    expect(onlyTitle.querySelectorAll('header > *')).toHaveLength(1);
    expect(onlyTitle.querySelector('.folio-source')).toBeNull();
  });
});
