import { describe, expect, it } from 'vitest';
import { articleMeta, MAX_META_CHARS } from './meta.ts';
import type { Article } from './article.ts';

const article = (over: Partial<Article>): Article => ({
  title: 'T', url: 'https://example.com/a', site: 'example.com', author: null, date: null, excerpt: null, image: null,
  lang: null, dir: null, contentHtml: '<p>x</p>', text: 'x', wordCount: 1, ...over,
} as Article);

describe('article metadata a page chooses', () => {
  it('keeps ordinary values as they are', () => {
    expect(articleMeta(article({ author: 'A. Writer', image: 'https://example.com/i.png' }))).toEqual({
      title: 'T', url: 'https://example.com/a', site: 'example.com', author: 'A. Writer', date: null, excerpt: null, image: 'https://example.com/i.png', word_count: 1,
    });
  });

  it('cuts a huge title at a word and leaves out an address too long to be one', () => {
    const meta = articleMeta(article({ title: 'word '.repeat(60_000), image: `data:image/png;base64,${'A'.repeat(500_000)}` }));
    expect(meta.title.length).toBeLessThanOrEqual(MAX_META_CHARS);
    expect(meta.title).toMatch(/word…$/);
    expect(meta.image).toBeNull();
    expect(JSON.stringify(meta).length).toBeLessThan(2 * MAX_META_CHARS);
  });
});
