import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeArticleHead } from './article-head.ts';

const STORY =
  'Denver Health provides therapy and programs to patients of all ages who are struggling with mental health issues, in inpatient and outpatient settings alike, all year round.';

function headOf(html: string, titles: string[], blocks = 'h1, h2, h3, p'): string {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  removeArticleHead(root, titles);
  return Array.from(root.querySelectorAll(blocks), (block) => block.textContent!.replace(/\s+/g, ' ').trim()).join(' ');
}

describe('removeArticleHead: the lines above the story that the title and metadata carry', () => {
  it('finds the repeated headline under a wrapper that holds the page’s <main>', () => {
    // The wrapper's text starts with the headline and runs on into the story: it is a container, not a line.
    const text = headOf(`<div class="row"><main role="main"><section><h2>Mental&nbsp;Health Services</h2><p>${STORY}</p></section></main></div>`, [
      'Mental Health Services',
    ]);
    expect(text).toBe(STORY);
  });

  it('reads an element holding blocks below a site’s own elements as a container', () => {
    const text = headOf(`<div><devsite-content><article><h3>Learn web development</h3><p>${STORY}</p></article></devsite-content></div>`, [
      'Learn web development',
    ]);
    expect(text).toBe(STORY);
  });

  it('reads a <span> set between blocks as a line, and one inside a sentence as part of it', () => {
    const titles = ['Top 15 Data Analytics Tools'];
    expect(headOf(`<article><span>Top 15 Data Analytics Tools</span> <div><p>${STORY}</p></div></article>`, titles, 'span, p')).toBe(STORY);
    const inline = `<p>Read our <span>Top 15 Data Analytics Tools</span> before you buy.</p>`;
    expect(headOf(`${inline}<p>${STORY}</p>`, titles, 'p')).toBe(`Read our Top 15 Data Analytics Tools before you buy. ${STORY}`);
  });

  it('matches a headline that a <br> breaks in two', () => {
    const text = headOf(`<h1>News Product<br>Management Certification</h1><p>${STORY}</p>`, ['News Product Management Certification']);
    expect(text).toBe(STORY);
  });

  it('matches the title as Readability found it or as it is printed, and keeps a heading that is neither', () => {
    const titles = ['News Product Management Certification – News Product Alliance', 'News Product Management Certification'];
    expect(headOf(`<h2>News Product Management Certification</h2><p>${STORY}</p>`, titles)).toBe(STORY);
    expect(headOf(`<h2>News Product Management Certification – News Product Alliance</h2><p>${STORY}</p>`, titles)).toBe(STORY);
    expect(headOf(`<h2>Management Certification</h2><p>${STORY}</p>`, titles)).toBe(`Management Certification ${STORY}`);
  });

  it('looks no further than the head: the headline repeated after the first paragraph stays', () => {
    const text = headOf(`<p>${STORY}</p><h2>Mental Health Services</h2><p>${STORY}</p>`, ['Mental Health Services']);
    expect(text).toBe(`${STORY} Mental Health Services ${STORY}`);
  });
});
