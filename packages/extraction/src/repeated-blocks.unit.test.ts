import { describe, expect, it } from 'vitest';
import { parseDocument } from './document.ts';
import { extractArticle } from './index.ts';
import { pageStatements, statesDiscussion } from './main-region.ts';
import { COMMENTS_KEPT_WORDS, ENTRIES_RATIO, entriesRatio, OPEN_GRAPH_FACTOR, removeCommentSections, repeatedBlocksOf } from './repeated-blocks.ts';

/**
 * A page's run of like blocks (repeated-blocks.ts): found by tag and class, not inside the page's frame, not a
 * layout's columns; and when it stands in for what Readability kept. Hand-written pages.
 */
const URL = 'https://jobs.example.org/board';

const JOBS = [
  'Acme Robotics is hiring a firmware engineer for its warehouse arm (acme.example) 2 hours ago',
  'Lumen Health is hiring a senior data engineer, remote within Europe (lumen.example) 5 hours ago',
  'Northwind Freight is hiring an engineering manager for routing (northwind.example) 1 day ago',
  'Quarry Labs is hiring a product designer for its analytics suite (quarry.example) 2 days ago',
  'Tidewater Energy is hiring a site reliability engineer on call rota (tidewater.example) 3 days ago',
];

const page = (body: string, head = '') =>
  `<!DOCTYPE html><html><head><title>Jobs board</title>${head}</head><body>${body}</body></html>`;

const nav = `<nav><ul>${['Newest comments and threads of the whole site', 'Past stories from every day of the year',
  'Ask the community a question of your own', 'Show the community what you have built lately']
  .map((t) => `<li class="item"><a href="/x">${t}</a></li>`).join('')}</ul></nav>`;

const table = `<table><tbody>${JOBS.map((job, i) => `<tr class="job row-${i}"><td>${i + 1}.</td><td><a href="/j/${i}">${job}</a></td></tr>`).join('')}</tbody></table>`;

describe('repeatedBlocksOf', () => {
  it('finds rows alike by tag and class (digits dropped) and keeps their table whole', () => {
    const found = repeatedBlocksOf(parseDocument(page(`${nav}<p>These are jobs at our startups.</p>${table}`), URL));
    expect(found?.element.localName).toBe('table');
    expect(found?.count).toBe(JOBS.length);
    expect(found?.comments).toBe(false);
  });

  it('finds entries alike whatever categories, tags and place in the grid their classes file them under', () => {
    const filed = [['recipes dinner', 'quick'], ['breakfast', 'gluten-free'], ['snacks', 'quick'], ['dinner', 'family']];
    const posts = filed.map(([categories, tag], i) =>
      `<article class="post-${30149 + i} post type-post status-publish format-standard ${categories!.split(' ').map((c) => `category-${c}`).join(' ')} tag-${tag} entry${i === 0 ? ' first' : ''}">` +
      `<h2 class="entry-title"><a href="/r/${i}">${JOBS[i]}</a></h2></article>`).join('');
    const found = repeatedBlocksOf(parseDocument(page(`<main class="content">${posts}</main>`), URL));
    expect(found?.element.localName).toBe('main');
    expect(found?.count).toBe(filed.length);
  });

  it('takes nothing from the page frame, however alike its items', () => {
    expect(repeatedBlocksOf(parseDocument(page(nav), URL))).toBeNull();
  });

  it('does not take a layout of a few plain columns, nor blocks one of which holds most of the text', () => {
    const long = 'A long column of the page that holds most of its words and reads on and on. '.repeat(20);
    const columns = `<div><div>${JOBS[0]}</div><div>${long}</div><div>${JOBS[1]}</div><div>${JOBS[2]}</div></div>`;
    expect(repeatedBlocksOf(parseDocument(page(columns), URL))).toBeNull();
    const dominated = `<div><div class="c">${JOBS[0]}</div><div class="c">${long}</div><div class="c">${JOBS[1]}</div></div>`;
    expect(repeatedBlocksOf(parseDocument(page(dominated), URL))).toBeNull();
  });

  it('needs three blocks with an entry\'s worth of text each', () => {
    const two = `<ul>${JOBS.slice(0, 2).map((j) => `<li>${j}</li>`).join('')}</ul>`;
    expect(repeatedBlocksOf(parseDocument(page(two), URL))).toBeNull();
    const labels = `<ul>${['Home', 'Shop', 'Blog', 'Help', 'About'].map((j) => `<li>${j}</li>`).join('')}</ul>`;
    expect(repeatedBlocksOf(parseDocument(page(labels), URL))).toBeNull();
  });

  it('takes a grid of short cards, each with its picture, which a menu of short labels never is', () => {
    const cards = (picture: (i: number) => string) => `<div class="grid">${['Roc Loc 5', 'Caden Vent', 'Scamp II', 'Register II']
      .map((name, i) => `<div class="tile">${picture(i)}<a href="/p/${i}">${name} Light</a><span>$2${i}.95</span></div>`).join('')}</div>`;
    const pictured = repeatedBlocksOf(parseDocument(page(cards((i) => `<img src="/p/${i}.jpg" alt="">`)), URL));
    expect(pictured?.element.className).toBe('grid');
    expect(pictured?.count).toBe(4);
    // A <picture> whose image is only its <source>s is a picture all the same.
    expect(repeatedBlocksOf(parseDocument(page(cards(() => '<picture><source srcset="/p.webp"></picture>')), URL))?.count).toBe(4);
    // Without pictures the same blocks are too short to be entries; with one picture in four, they are not cards.
    expect(repeatedBlocksOf(parseDocument(page(cards(() => '')), URL))).toBeNull();
    expect(repeatedBlocksOf(parseDocument(page(cards((i) => (i === 0 ? '<img src="/x.jpg" alt="">' : ''))), URL))).toBeNull();
    // Even pictured, a block must say something more than a label.
    const icons = `<ul>${['Home', 'Shop', 'Blog', 'Help'].map((j) => `<li><img src="/${j}.svg" alt="">${j}</li>`).join('')}</ul>`;
    expect(repeatedBlocksOf(parseDocument(page(icons), URL))).toBeNull();
  });

  it('says when the blocks are a comment section', () => {
    const comments = `<div id="comments"><ol>${JOBS.map((j) => `<li class="comment">${j}</li>`).join('')}</ol></div>`;
    expect(repeatedBlocksOf(parseDocument(page(comments), URL))?.comments).toBe(true);
  });
});

describe('entriesRatio', () => {
  const entries = { element: null as unknown as Element, length: 1000, count: 10, comments: false };
  const kept = { length: 300, words: 60, statedArticle: false, openGraphArticle: false };

  it('stands in for ENTRIES_RATIO times what was kept, more on an og:type article', () => {
    expect(entriesRatio(entries, kept)).toBe(ENTRIES_RATIO);
    expect(entriesRatio({ ...entries, length: 599 }, kept)).toBeNull();
    expect(entriesRatio(entries, { ...kept, openGraphArticle: true })).toBeNull();
    expect(entriesRatio({ ...entries, length: 1200 }, { ...kept, openGraphArticle: true })).toBe(ENTRIES_RATIO * OPEN_GRAPH_FACTOR);
  });

  it('never for a stated article that kept its words, nor comments under a kept article', () => {
    expect(entriesRatio(entries, { ...kept, statedArticle: true })).toBeNull();
    expect(entriesRatio({ ...entries, comments: true }, { ...kept, words: COMMENTS_KEPT_WORDS })).toBeNull();
    expect(entriesRatio({ ...entries, comments: true }, kept)).toBe(ENTRIES_RATIO);
  });
});

describe('extractArticle on a page of entries', () => {
  it('keeps every entry of a list where Readability kept only its intro, links and all', () => {
    const html = page(`${nav}<div class="main"><p>These are jobs at our startups. See more on the board.</p>${table}</div>
      <footer><p>Guidelines | FAQ | Contact</p></footer>`);
    const article = extractArticle(html, { url: URL });
    for (const job of JOBS) expect(article.text).toContain(job);
    expect(article.contentHtml).toContain('<table');
    expect(article.text).not.toContain('Guidelines');
    expect(article.text).not.toContain('Past stories');
  });

  it('prints once what each entry prints again for another screen width', () => {
    // A site builder's responsive variants: each job card once for wide screens and once for narrow ones, all but one
    // hidden by the page's media queries. A run of entries is alike by nature, but a card's words printed twice are a copy.
    const line = 'Apply with a short letter and a list of past work; the team answers every letter within the week.';
    const card = (job: string, i: number) => `<h3><a href="/j/${i}">${job}</a></h3><div><a href="/j/${i}">${line}</a></div>`;
    const cards = JOBS.map((job, i) => `<div class="job"><div class="wide">${card(job, i)}</div><div class="narrow">${card(job, i)}</div></div>`);
    const html = page(`${nav}<div class="main"><p>These are jobs at our startups. See more on the board.</p><div class="jobs">${cards.join('')}</div></div>
      <footer><p>Guidelines | FAQ | Contact</p></footer>`);
    const article = extractArticle(html, { url: URL });
    for (const job of JOBS) expect(article.text.split(job)).toHaveLength(2);
    expect(article.text.split(line)).toHaveLength(JOBS.length + 1);
    expect(article.text).not.toContain('Guidelines');
  });
});

describe('removeCommentSections: readers’ comments out of a region that stands in for an article', () => {
  const SENTENCE = 'The harbour commission met on Tuesday';
  // The article's first words as `removeCommentSections` takes them: lower-cased words joined by spaces.
  const OPENING = 'the harbour commission met on tuesday';
  const region = (html: string) => parseDocument(`<body><div id="region">${html}</div></body>`, URL).getElementById('region')!;
  const text = (element: Element) => element.textContent!.replace(/\s+/g, ' ').trim();

  it('removes a section whose class or id says comments, at any depth', () => {
    const element = region(`<article><p>${SENTENCE} to weigh the sea wall.</p></article>
      <div class="wrap"><section id="comments"><p>Great post, thanks!</p></section></div><div class="comment-respond">Leave a reply</div>`);
    removeCommentSections(element, OPENING);
    expect(text(element)).toBe(`${SENTENCE} to weigh the sea wall.`);
  });

  it('keeps a wrapper that holds the article itself, whatever its class says, and looks inside it', () => {
    const element = region(`<div class="post has-comments"><p>${SENTENCE} to weigh the sea wall.</p>
      <ol class="comment-list"><li>Great post, thanks!</li></ol></div>`);
    removeCommentSections(element, OPENING);
    expect(text(element)).toBe(`${SENTENCE} to weigh the sea wall.`);
  });

  it('keeps a thread whose opening post is one of its "comments": the replies are its content', () => {
    const element = region(`<div class="comment"><p>${SENTENCE} to weigh the sea wall.</p></div>
      <div class="comment"><p>They should have done it years ago.</p></div>`);
    removeCommentSections(element, OPENING);
    expect(text(element)).toContain('They should have done it years ago.');
  });
});

describe('statesDiscussion', () => {
  const head = (html: string) => parseDocument(`<html><head>${html}</head><body><p>x</p></body></html>`, URL);

  it('reads JSON-LD and microdata discussion types, and nothing else', () => {
    expect(statesDiscussion(pageStatements(head('<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>')))).toBe(true);
    expect(statesDiscussion(pageStatements(head('<script type="application/ld+json">{"@type":["QAPage"]}</script>')))).toBe(true);
    expect(statesDiscussion(pageStatements(parseDocument('<body><div itemscope itemtype="https://schema.org/Question">q</div></body>', URL)))).toBe(true);
    expect(statesDiscussion(pageStatements(head('<script type="application/ld+json">{"@type": "BlogPosting"}</script>')))).toBe(false);
    expect(statesDiscussion(pageStatements(head('<meta property="og:type" content="article">')))).toBe(false);
  });
});
