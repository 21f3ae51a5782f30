/** Hand-written pages for the unit tests: a site frame around an article with enough prose for Readability. */

const SENTENCES = [
  'The harbour commission met on Tuesday to weigh a plan that would rebuild the old sea wall before winter storms arrive.',
  'Engineers told the commission that the existing wall, built in 1931, has lost nearly a third of its original height.',
  'Residents who live along the waterfront said they had watched the water creep closer to their doors every year.',
  'The proposal would cost about twelve million dollars, most of it covered by a state resilience grant awarded in spring.',
  'Several members asked whether the work could be staged so that the fishing fleet keeps access to the north quay.',
  'A final vote is expected next month, after a public hearing at the library on the first Thursday of the month.',
];

/** `n` paragraphs of plain prose (each a few sentences, with commas, as Readability likes). */
export function prose(n: number, offset = 0): string {
  const paragraphs: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = SENTENCES[(i + offset) % SENTENCES.length]!;
    const b = SENTENCES[(i + offset + 1) % SENTENCES.length]!;
    const c = SENTENCES[(i + offset + 2) % SENTENCES.length]!;
    paragraphs.push(`<p>${a} ${b} ${c}</p>`);
  }
  return paragraphs.join('\n');
}

export interface PageParts {
  head?: string;
  htmlAttributes?: string;
  before?: string;
  article?: string;
  after?: string;
}

/** A page with a navigation bar, the article in `<article>`, and a footer. */
export function page(parts: PageParts = {}): string {
  return `<!DOCTYPE html>
<html${parts.htmlAttributes ? ` ${parts.htmlAttributes}` : ''}>
<head><meta charset="utf-8"><title>Sea wall plan goes to a vote | The Harbour Gazette</title>${parts.head ?? ''}</head>
<body>
<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<main>
<article class="story">
<h1>Sea wall plan goes to a vote</h1>
${parts.before ?? ''}
${parts.article ?? prose(6)}
${parts.after ?? ''}
</article>
</main>
<footer class="site-footer"><p>© 2024 The Harbour Gazette. All rights reserved.</p></footer>
</body>
</html>`;
}
