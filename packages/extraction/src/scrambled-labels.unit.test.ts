import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeScrambledLabels } from './scrambled-labels.ts';

function cleaned(html: string): string {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  removeScrambledLabels(root);
  return root.innerHTML;
}

const uuid = (i: number) => `${String(i).padStart(8, '0')}-bf1f-466a-b856-6f031758a086`;
/** "Sponsored" as eBay writes it: each letter in a span, a span of hidden noise after each. */
const scrambled = [...'Sponsored'].map((letter, i) => `<span>${letter}</span><span>${uuid(i)}</span>`).join('');

describe('removeScrambledLabels: labels whose letters stand between spans of hidden noise', () => {
  it('removes a run of spans that is half identifiers, and keeps the heading beside it', () => {
    expect(cleaned(`<h2>Similar Items</h2><p>${scrambled}</p>`)).toBe('<h2>Similar Items</h2>');
  });

  it('keeps identifiers a page prints among its words: in prose, in a table, in a short run of spans', () => {
    const html = `<p>Send the key <span>${uuid(1)}</span> with every request.</p>` +
      `<table><tbody><tr><td>${uuid(2)}</td><td>${uuid(3)}</td><td>${uuid(4)}</td><td>${uuid(5)}</td></tr></tbody></table>` +
      `<p><span>Job</span><span>${uuid(6)}</span><span>queued</span><span>${uuid(7)}</span></p>` +
      `<p>${['Build', uuid(8), 'of', 'main', 'passed;', 'deploy', uuid(9), 'is', 'next.'].map((w) => `<span>${w}</span>`).join('')}</p>`;
    expect(cleaned(html)).toBe(html);
  });
});
