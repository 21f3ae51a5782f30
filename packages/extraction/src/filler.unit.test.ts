import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { isFiller, removeFiller } from './filler.ts';

function cleaned(html: string): string {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  removeFiller(root);
  return root.innerHTML;
}

const towns = ['Beverly Hills', 'Los Angeles', 'Irvine', 'Perris', 'Rosamond', 'Hacienda Heights', 'Chino', 'Piru'];
const keywordBlock = Array.from({ length: 80 }, (_, i) => `${towns[i % towns.length]}&nbsp;`).join(' ');
const zipCodes = Array.from({ length: 120 }, (_, i) => String(90000 + i * 37)).join(' ');

describe('removeFiller: text no reader reads', () => {
  it("removes a label printed over and over, a template's placeholder, and a long run of names or numbers without punctuation", () => {
    const label = '<span>Book Now <span class="star">*</span></span>'.repeat(40);
    const html = `<p>Kept.</p><div>${label}</div><div>${'word '.repeat(200)}</div><div>${keywordBlock}</div><div>${zipCodes}</div>`;
    expect(cleaned(html)).toBe('<p>Kept.</p>');
  });

  it('keeps prose, a list and a table of the same words, a poem broken into lines, and code', () => {
    const prose = `<p>${towns.join(', ')} and ${'the valley towns, the coast and the hills. '.repeat(12)}</p>`;
    const list = `<ul>${towns.map((town) => `<li>${town}</li>`).join('').repeat(10)}</ul>`;
    const table = `<table><tbody><tr>${Array.from({ length: 110 }, (_, i) => `<td>${90000 + i}</td>`).join('')}</tr></tbody></table>`;
    const poem = `<p>${Array.from({ length: 30 }, () => 'so much depends upon a red wheel barrow').join('<br>')}</p>`;
    const code = `<pre><code>${'nop '.repeat(80)}</code></pre>`;
    const html = prose + list + table + poem + code;
    expect(cleaned(html)).toBe(html);
  });

  it('reads a run as filler only past its thresholds', () => {
    expect(isFiller('Book Now '.repeat(14))).toBe(false);
    expect(isFiller('Book Now '.repeat(15))).toBe(true);
    expect(isFiller(Array.from({ length: 99 }, (_, i) => `town${i}`).join(' '))).toBe(false);
    expect(isFiller(Array.from({ length: 100 }, (_, i) => `town${i}`).join(' '))).toBe(true);
    expect(isFiller(`${Array.from({ length: 100 }, (_, i) => `town${i}`).join(' ')}.`)).toBe(false);
  });
});
