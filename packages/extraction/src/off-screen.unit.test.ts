import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './index.ts';
import { isOffScreen, mayHoldOffScreen, removeOffScreen } from './off-screen.ts';
import { prose } from './test-pages.ts';

const SPAM = [
  'Players seeking excitement can explore <a href="https://a.example/">Lucky Reef</a>, a casino with engaging pokies, live games, and fast, reliable payouts.',
  'Whether you prefer slots or table games, <a href="https://b.example/">Ozzie Spins</a> offers a wide selection, smooth mobile play, and regular promotions.',
  'For a dynamic gaming experience, <a href="https://c.example/">Jackpot Lagoon</a> provides interactive pokies, live dealer action, and a friendly interface.',
  'Discover the thrill of online gaming at <a href="https://d.example/">Planet Nine</a>, featuring diverse slots, exciting bonuses, and a platform for players.',
].map((sentence) => `<p>${sentence}</p>`).join('\n');

/** A blog post as a hacked WordPress site serves it: link spam injected after the page, in `style`. */
const hacked = (style: string) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Cheap fixes are the best | Motor Notes</title></head>
<body>
<div id="page" class="site"><div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
<article class="post"><header><h1>Cheap fixes are the best</h1></header><div class="entry-content">${prose(4)}</div></article>
</main></div></div>
<footer class="site-footer"><p>© 2024 Motor Notes.</p></footer></div>
<div style="${style}">${SPAM}</div>
</body></html>`;

describe('removeOffScreen: what the markup places off the screen', () => {
  it('tells an element placed off the screen from one merely moved', () => {
    expect(isOffScreen('position:absolute; left:-9999px; top:-9999px;')).toBe(true);
    expect(isOffScreen('position: fixed; top: -999em; left: -999em')).toBe(true);
    expect(isOffScreen('left:-35255px;position:absolute')).toBe(true);
    // A slide beside a carousel's visible one, a nudge, a negative margin: on the page, or near it.
    expect(isOffScreen('position:absolute; left:-300px')).toBe(false);
    expect(isOffScreen('position:relative; left:-9999px')).toBe(false);
    expect(isOffScreen('margin-left:-9999px')).toBe(false);
    expect(isOffScreen('position:absolute; left:-10em')).toBe(false);
  });

  it('is looked for only in markup that may hold it', () => {
    expect(mayHoldOffScreen('<div style="position:absolute;left:-9999px">x</div>')).toBe(true);
    expect(mayHoldOffScreen('<style>.sr{top: -10000px}</style>')).toBe(true);
    expect(mayHoldOffScreen('<div style="position:absolute;left:-5px;margin-top:-20px">x</div>')).toBe(false);
  });

  it('removes such elements unless they hold most of the text (content a script moves into view)', () => {
    const { document } = new JSDOM(
      `<body><div id="root"><p>${'Shown. '.repeat(20)}</p><div style="position:absolute;left:-9999px">Never seen.</div>` +
        `<span style="position:absolute;left:-9999px">Nor this.</span></div></body>`,
    ).window;
    const root = document.getElementById('root')!;
    expect(removeOffScreen(root)).toBe(2);
    expect(root.textContent).not.toMatch(/Never|Nor/);

    const revealed = new JSDOM(`<body><div id="root"><div style="position:absolute;left:-9999px">${prose(3)}</div><p>Loading</p></div></body>`).window.document;
    expect(removeOffScreen(revealed.getElementById('root')!)).toBe(0);
  });

  it('keeps link spam hidden off the screen out of the article, where Readability, blind to positions, takes it in', () => {
    const article = extractArticle(hacked('position:absolute; left:-35255px;'), { url: 'https://motor.example.com/2018/11/cheap-fixes' });
    expect(article.text).toContain('The harbour commission met on Tuesday');
    expect(article.text).not.toMatch(/casino|pokies|Jackpot/);
    // The same paragraphs on the page, in view, are the page's to keep: only the position decides.
    const shown = extractArticle(hacked('margin-top:1em;'), { url: 'https://motor.example.com/2018/11/cheap-fixes' });
    expect(shown.text).toMatch(/casino/);
  });
});
