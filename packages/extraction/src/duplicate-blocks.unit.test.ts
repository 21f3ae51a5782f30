import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeDuplicateBlocks } from './duplicate-blocks.ts';

const LONG_A = 'Home remodeling in California is a significant investment, with costs varying widely based on location, scope, materials and the contractor you choose for the work.';
const LONG_B = 'Understanding the cost factors and planning effectively can help you make the most of your budget, whether you are updating one room or the entire house.';
const DISH = 'Asparagus and eggs: one cup of asparagus, two soft-boiled or poached eggs, half a cup of sweet potato or a slice of whole-grain toast, and a teaspoon of olive oil.';

function dedupe(html: string): { removed: boolean; blocks: string[] } {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  const removed = removeDuplicateBlocks(root);
  return { removed, blocks: Array.from(root.querySelectorAll('h2, p, li'), (b) => b.textContent!.slice(0, 20)) };
}

describe('removeDuplicateBlocks: what the content prints twice', () => {
  it('removes a section printed again for another screen width, headings and all', () => {
    const section = `<h2>What a remodel costs</h2><p>${LONG_A}</p><p>${LONG_B}</p>`;
    const { removed, blocks } = dedupe(`<div class="variant-desktop">${section}</div><div class="variant-phone">${section}</div><p>The end of the guide.</p>`);
    expect(removed).toBe(true);
    expect(blocks).toEqual(['What a remodel costs', LONG_A.slice(0, 20), LONG_B.slice(0, 20), 'The end of the guide']);
  });

  it('removes two lines in a row printed again', () => {
    const { blocks } = dedupe(`<div><h2>Summary</h2><p>${LONG_A}</p><p>${LONG_B}</p></div><div><h2>Details</h2><p>${LONG_A}</p><p>${LONG_B}</p></div>`);
    expect(blocks).toEqual(['Summary', LONG_A.slice(0, 20), LONG_B.slice(0, 20), 'Details']);
  });

  it('removes a single line printed again right after itself (a theme’s wide and narrow copies)', () => {
    const { removed, blocks } = dedupe(`<h2>Day 1</h2><p class="wide">${DISH}</p><p class="narrow">${DISH}</p><p>${LONG_B}</p>`);
    expect(removed).toBe(true);
    expect(blocks).toEqual(['Day 1', DISH.slice(0, 20), LONG_B.slice(0, 20)]);
  });

  it('keeps a single line printed again among lines of its own (a meal plan’s dish on another day)', () => {
    const { removed, blocks } = dedupe(`<h2>Day 1</h2><p>${DISH}</p><p>${LONG_B}</p><h2>Day 3</h2><p>${DISH}</p><p>${LONG_A}</p>`);
    expect(removed).toBe(false);
    expect(blocks.filter((b) => b === DISH.slice(0, 20))).toHaveLength(2);
  });

  it('never takes list items, table cells or code on their own, and keeps short lines', () => {
    const plan = `<ul><li><p>${LONG_A}</p><p>${LONG_B}</p></li><li>Basic</li></ul>`;
    const { removed } = dedupe(`${plan}<ul><li><p>${LONG_A}</p><p>${LONG_B}</p></li><li>Pro</li></ul><p>Short line.</p><p>Short line.</p>`);
    expect(removed).toBe(false);
    // A whole list printed again counts as one line: a copy beside another copy, kept among lines of its own.
    expect(dedupe(`${plan}<p>${LONG_B}</p><p>Between.</p>${plan}<p>${LONG_B}</p>`).blocks.filter((b) => b === 'Basic')).toHaveLength(1);
    expect(dedupe(`${plan}<p>Between.</p>${plan}`).blocks.filter((b) => b === 'Basic')).toHaveLength(2);
  });

  it('removes a reply’s preview of the whole post it answers, inside a thread’s list of posts', () => {
    const post = (id: string, body: string) => `<li class="post" id="${id}"><div class="author">${id}</div><div class="content">${body}</div></li>`;
    const first = `<p>${LONG_A}</p><p>${LONG_B}</p>`;
    const reply = `<div class="parent-preview">${first}</div><div class="content"><p>${DISH}</p></div>`;
    const { removed, blocks } = dedupe(`<ul>${post('one', first)}<li class="post">${reply}</li></ul>`);
    expect(removed).toBe(true);
    expect(blocks.filter((b) => b === LONG_A.slice(0, 20))).toHaveLength(1);
    expect(blocks).toContain(DISH.slice(0, 20));
    // One paragraph quoted again in a reply is a line, not a passage: replies quote, and the quote stays.
    const quoted = dedupe(`<ul>${post('one', first)}<li class="post"><blockquote><p>${LONG_A}</p></blockquote><p>${DISH}</p></li></ul>`);
    expect(quoted.removed).toBe(false);
  });
});
