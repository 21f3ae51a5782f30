// Large pages built to a shape (bench/extraction/run.ts prints them): each shape at n and 2n blocks, timed once
// each, and the growth of the time, which is 2 for work that grows with the page and 4 for work that grows with its
// square. jsdom answers some questions at the cost of a node's siblings (a collection's length, a removal), so a page
// of many like blocks side by side is where extraction can turn quadratic; each shape here once did.
import { extractArticle, NoArticleError } from '@folio/extraction';

type Shape = { name: string; block: (i: number) => string; wrap?: (blocks: string) => string };

export const SHAPES: Shape[] = [
  { name: 'figures with captions', block: (i) => `<figure><img src="/i/${i}.png" alt="pic ${i}"><figcaption>Caption ${i} of the gallery</figcaption></figure>` },
  { name: 'table rows', block: (i) => `<tr><td>${i}</td><td>cell text</td><td>more words</td></tr>`, wrap: (rows) => `<table>${rows}</table>` },
  { name: 'lazy images with <noscript> fallbacks', block: (i) => `<noscript><img src="/n${i}.jpg"></noscript><img data-src="/n${i}.jpg"><p>Text ${i} of the post.</p>` },
  { name: 'highlighted code lines', block: (i) => `<span class="kd">let</span> <span class="nx">v${i}</span> = <span class="mi">${i}</span>;\n`, wrap: (lines) => `<p>${'Prose before the code. '.repeat(30)}</p><pre><code>${lines}</code></pre>` },
  { name: 'product cards', block: (i) => `<div class="card"><div class="title">Card ${i}</div><div class="price">$${i}</div></div>` },
  { name: 'paragraphs', block: (i) => `<p>Paragraph ${i} has a few words of prose in it.</p>` },
  { name: 'list of links', block: (i) => `<li><a href="/p/${i}">Link ${i}</a></li>`, wrap: (items) => `<ul>${items}</ul>` },
];

export interface Growth {
  name: string;
  bytes: number;
  ms: [number, number];
  outcome: string;
}

export function pageOf(shape: Shape, n: number): string {
  const blocks = Array.from({ length: n }, (_, i) => shape.block(i)).join('');
  return `<!DOCTYPE html><html><head><title>Built page</title></head><body><main><h1>Built page</h1>${shape.wrap ? shape.wrap(blocks) : blocks}</main></body></html>`;
}

export async function measureGrowth(n: number, nextTurn: () => Promise<void>): Promise<Growth[]> {
  const results: Growth[] = [];
  for (const shape of SHAPES) {
    const ms: number[] = [];
    let outcome = '';
    let bytes = 0;
    for (const count of [n, 2 * n]) {
      const html = pageOf(shape, count);
      bytes = html.length;
      await nextTurn();
      const start = performance.now();
      try {
        outcome = `${extractArticle(html, { url: 'https://example.com/built/page' }).wordCount.toLocaleString('en-US')} words`;
      } catch (error) {
        if (!(error instanceof NoArticleError)) throw error;
        outcome = 'no article';
      }
      ms.push(performance.now() - start);
    }
    results.push({ name: shape.name, bytes, ms: [ms[0]!, ms[1]!], outcome });
  }
  return results;
}
