import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeRelatedLinks } from './related-links.ts';

/** The text left of an article's content once its related links are removed. */
function cleaned(content: string, entries?: string): string {
  const { document } = new JSDOM(`<body><div id="content">${content}</div></body>`, { url: 'https://news.example.com/2024/05/sea-wall.html' }).window;
  const root = document.getElementById('content')!;
  removeRelatedLinks(root, entries ? document.querySelector(entries)! : undefined);
  return root.textContent!.replace(/\s+/g, ' ').trim();
}

const STORY = '<p>The harbour commission met on Tuesday to weigh a plan that would rebuild the old sea wall before winter storms arrive.</p>';

describe('related links written as lines', () => {
  it('removes lines of links to the site’s other stories, one headline a line, with their label', () => {
    const text = cleaned(`${STORY}<p><strong>DON'T MISS</strong></p>
      <p><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season</a> [<strong>INSIGHT]<br></strong>
         <a href="/2024/04/pier.html">Pier repairs finish two weeks early</a> [<strong>VIDEO]<br></strong>
         <a href="https://www.news.example.com/2024/03/storm.html">What the last storm cost the town</a></p>`);
    expect(text).toBe(STORY.replace(/<\/?p>/g, ''));
  });

  it('takes a heading just above such lines for their label, as it does for a list of links', () => {
    const text = cleaned(`${STORY}<h3>Most read</h3>
      <p><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season announced by the operator</a><br>
         <a href="/2024/04/pier.html">Pier repairs finish two weeks early and under the agreed budget</a><br>
         <a href="/2024/03/storm.html">What the last storm cost the town, street by street</a></p>`);
    expect(text).toBe(STORY.replace(/<\/?p>/g, ''));
  });

  it('keeps lines of links to files: the handouts a page offers are its content', () => {
    // Longer than a single line of links (which goes whatever it points to): four lines, each a file.
    const text = cleaned(`${STORY}<p>Course materials:</p>
      <p><a href="/course/book.pdf">Climate smart gardening course book (pdf)</a><br>
         <a href="/course/handouts.pdf?v=2">Facilitators handouts from the notebook (pdf)</a><br>
         <a href="/course/slides.pdf">Companion presentation for the first session (pdf)</a><br>
         <a href="/course/notes.pdf">Presenter notes for the companion presentation (pdf)</a></p>`);
    expect(text).toContain('Course materials:');
    expect(text).toContain('Facilitators handouts from the notebook (pdf)');
  });

  it('keeps lines that say more than their link, and lines of links out of the site', () => {
    const text = cleaned(`${STORY}
      <p><a href="/2024/04/ferry.html">The ferry</a> runs twice a day from May, the operator said on Monday, with a third
         crossing at weekends.<br><a href="/2024/04/pier.html">The pier</a> reopens in June, the council said.</p>
      <p><a href="https://state.example.org/report">State resilience report, 2023 edition</a><br>
         <a href="https://engineers.example.net/survey">Sea wall survey by the county engineers</a></p>`);
    expect(text).toContain('third crossing at weekends');
    expect(text).toContain('State resilience report, 2023 edition');
    expect(text).toContain('Sea wall survey by the county engineers');
  });
});

describe('the titles of a run of entries inside the content', () => {
  const cards = ['Oak bookcase, 80 cm', 'Wall shelf, birch', 'Cube shelving unit'].map((name, i) => `<div class="card">
      <div class="card-title"><a href="/p/${i}"><h4>${name}</h4></a></div><p class="price">€${79 + i}.00</p></div>`).join('');
  const grid = `<div class="grid">${cards}</div>`;

  it('keeps the linked heading that names each entry of the run', () => {
    const text = cleaned(`${STORY}${grid}`, '.grid');
    expect(text).toContain('Oak bookcase, 80 cm');
    expect(text).toContain('Cube shelving unit');
  });

  it('still removes the same lines outside a run, and a run’s lines of links that are not headings', () => {
    expect(cleaned(`${STORY}${grid}`)).not.toContain('Oak bookcase');
    const text = cleaned(`${STORY}<div class="grid">${cards}<div class="more"><a href="/shelving?page=2">Next page of shelving</a></div></div>
      <h3><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season</a></h3>`, '.grid');
    expect(text).toContain('Wall shelf, birch');
    expect(text).not.toContain('Next page of shelving');
    expect(text).not.toContain('Ferry timetable');
  });
});

describe('links that are the content', () => {
  const index = (n: number) => Array.from({ length: n }, (_, i) =>
    `<li><a href="/wiki/Language_${i}">Programming language number ${i}</a></li>`).join('');

  it('keeps a category’s lists of its pages when they are most of what the content holds', () => {
    const text = cleaned(`<p>Pages in this category.</p><h3>A</h3><ul>${index(12)}</ul><h3>B</h3><ul>${index(12)}</ul>`);
    expect(text).toContain('Programming language number 11');
    expect(text).toContain('Pages in this category.');
  });

  it('still removes a rail of headlines under a story that is a third of the content', () => {
    const story = STORY.repeat(2);
    const text = cleaned(`${story}<h3>Most read</h3><ul>${index(6)}</ul>`);
    expect(text).not.toContain('Programming language');
    expect(text).toContain('old sea wall');
  });
});

describe('links that name what follows them', () => {
  it('keeps a heading whose link is its own section’s permalink, and still removes a heading linking to another story', () => {
    const text = cleaned(`<h2 id="examples"><a href="#examples">Examples</a></h2>${STORY}
      <h3 id="costs"><a href="https://news.example.com/2024/05/sea-wall.html#costs">What it costs</a></h3>${STORY}
      <h3><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season</a></h3>`);
    expect(text).toContain('Examples');
    expect(text).toContain('What it costs');
    expect(text).not.toContain('Ferry timetable');
  });

  it('keeps the terms of a definition list that link to their own pages, and a term-less list of links still goes', () => {
    const text = cleaned(`${STORY}<dl>
      <dt><a href="/docs/socket/send"><code>Socket.send()</code></a></dt><dd>Queues data to be sent to the server.</dd>
      <dt><a href="/docs/socket/close"><code>Socket.close()</code></a></dt><dd>Closes the connection.</dd></dl>
      <div><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season</a></div>`);
    expect(text).toContain('Socket.send()Queues data');
    expect(text).toContain('Socket.close()Closes');
    expect(text).not.toContain('Ferry timetable');
  });
});
