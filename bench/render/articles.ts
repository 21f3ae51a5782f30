// Article pages shaped like the engine's html output: the service's kind of stylesheet, a title, a source line,
// headings, paragraphs, a list, a quote, a table, and a few images on a local server standing in for the web.

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no more out up into do any your what some can only ' +
  'other time new about these two may first then could also after over such where most through our years government ' +
  'people work city market research energy history water system between during without under policy rate change'
).split(' ');

/** Deterministic pseudo-random words (the same article every run). */
function* words(seed: number): Generator<string> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield WORDS[x % WORDS.length]!;
  }
}

function sentence(gen: Generator<string>, n: number): string {
  const w = Array.from({ length: n }, () => gen.next().value as string);
  w[0] = w[0]!.charAt(0).toUpperCase() + w[0]!.slice(1);
  return `${w.join(' ')}.`;
}

const STYLE = `
  html { font-family: 'Noto Serif', Georgia, serif; font-size: 11.5pt; line-height: 1.5; color: #1a1a1a; }
  body { max-width: 42em; margin: 0 auto; }
  h1 { font-family: 'Noto Sans', sans-serif; font-size: 1.9em; line-height: 1.2; margin: 0 0 .3em; }
  h2 { font-family: 'Noto Sans', sans-serif; font-size: 1.3em; margin: 1.4em 0 .4em; break-after: avoid; }
  .source { color: #666; font-size: .85em; margin-bottom: 2em; }
  img { max-width: 100%; height: auto; display: block; margin: 1em auto; break-inside: avoid; }
  blockquote { border-left: 3px solid #ccc; margin: 1em 0; padding: 0 1em; color: #444; }
  table { border-collapse: collapse; width: 100%; margin: 1em 0; }
  td, th { border: 1px solid #ccc; padding: .3em .5em; text-align: left; }
  a { color: #0645ad; text-decoration: none; }
`;

/** A complete article page of about `wordCount` words with `images` images from `imageOrigin`. */
export function articlePage(wordCount: number, imageOrigin: string, images = 3): string {
  const gen = words(wordCount);
  const blocks: string[] = [];
  let count = 0;
  let section = 0;
  const every = Math.max(1, Math.floor(wordCount / (images + 1)));
  let nextImage = every;
  let shown = 0;
  while (count < wordCount) {
    if (count >= section * 400) {
      section += 1;
      blocks.push(`<h2>${sentence(gen, 5).slice(0, -1)}</h2>`);
    }
    const n = 40 + (count % 5) * 12;
    const text = Array.from({ length: 3 }, () => sentence(gen, Math.ceil(n / 3))).join(' ');
    blocks.push(`<p>${text.replace(/ (\w+) (\w+)\./, ' <a href="https://example.org/$1">$1 $2</a>.')}</p>`);
    count += n;
    if (count > nextImage && shown < images) {
      shown += 1;
      nextImage += every;
      blocks.push(`<figure><img src="${imageOrigin}/img/${shown}.jpg" width="800" height="450" alt=""></figure>`);
    }
    if (section % 3 === 0 && count % 7 === 0) blocks.push(`<blockquote><p>${sentence(gen, 25)}</p></blockquote>`);
  }
  blocks.splice(4, 0, `<ul>${Array.from({ length: 5 }, () => `<li>${sentence(gen, 10)}</li>`).join('')}</ul>`);
  blocks.splice(8, 0, `<table><tr><th>Year</th><th>Value</th><th>Change</th></tr>${Array.from({ length: 6 }, (_, i) => `<tr><td>${2019 + i}</td><td>${(i * 37) % 100}</td><td>${i % 2 ? '+' : '-'}${i}.${i}%</td></tr>`).join('')}</table>`);
  return `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>Article of ${wordCount} words</title>` +
    `<style>${STYLE}</style></head><body><article><h1>A long look at ${wordCount} words of prose</h1>` +
    `<p class="source">example.org · 2024-05-01</p>${blocks.join('\n')}</article></body></html>`;
}
