import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './index.ts';
import { page, prose } from './test-pages.ts';
import { removeTeasers } from './teasers.ts';

/** The text left of an article's content once the teasers are removed. */
function cleaned(content: string): string {
  const { document } = new JSDOM(`<body><div id="content">${content}</div></body>`).window;
  const root = document.getElementById('content')!;
  removeTeasers(root);
  return root.textContent!.replace(/\s+/g, ' ').trim();
}

const teaser = (category: string, excerpt: string) => `<article class="teaser"><div class="category">${category}</div>
  <div class="date">December 19, 2025</div><div class="body">${excerpt}...</div></article>`;

const TEASERS = [
  teaser('Front Page', 'THE SALVATION ARMY continued its long-standing tradition of community outreach with the distribution of 1,500 hampers on Tuesday, December 1'),
  teaser('Front Page', 'NICOLE HERBERT, who served as Clerk of the House of Assembly for 25 years, has been called out of retirement for active'),
  teaser('News', 'THE 2025 national Christmas and Nine Mornings Festival was launched on Sunday, December 14, with a colourful parade thro'),
  teaser('News', 'MEMBERS of the Traffic department won the Police Carolling Contest for the third consecutive year on Friday, December 12'),
].join('');

describe('removeTeasers', () => {
  it("removes a run of teasers cut short under the story, with its label, and keeps the story", () => {
    const text = cleaned(`${prose(4)}<h3>Also in the news</h3><section>${TEASERS}</section>`);
    expect(text).toContain('The harbour commission met');
    expect(text).not.toMatch(/SALVATION ARMY|Carolling|Also in the news/);
  });

  it('keeps a run that is most of what was kept (a list of stories), and list items an author ended with an ellipsis', () => {
    expect(cleaned(`<h1>Front page</h1>${TEASERS}${TEASERS}`)).toContain('SALVATION ARMY');
    const items = ['Nine courses on gardening, from soil to seed...', 'Six on cooking with what the garden gives...', 'Four on preserving it for the winter...'];
    expect(cleaned(`${prose(4)}<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)).toContain('Six on cooking');
  });

  it("runs on a page whose og:type says article, not on others", () => {
    const html = (head: string) => page({ head, article: `<h1>Sea wall plan goes to a vote</h1>${prose(5)}<h3>Also in the news</h3><section>${TEASERS}</section>` });
    const article = extractArticle(html('<meta property="og:type" content="article">'), { url: 'https://gazette.example.com/news/sea-wall' });
    expect(article.text).not.toContain('SALVATION ARMY');
    const other = extractArticle(html(''), { url: 'https://gazette.example.com/news/sea-wall' });
    expect(other.text).toContain('SALVATION ARMY');
  });
});
