import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle, htmlToText } from './index.ts';
import { page, prose } from './test-pages.ts';
import { classWords } from './boilerplate.ts';

const URL = 'https://news.example.com/2024/05/sea-wall.html';

function extract(article: string, head = '') {
  const result = extractArticle(page({ article, head }), { url: URL });
  return { ...result, text: htmlToText(result.contentHtml) };
}

describe('cleanup: what Readability keeps that is not the article', () => {
  it('removes the byline and dateline lines but keeps the byline as the author', () => {
    const { text, author } = extract(`<div class="byline">By Jane Doe</div>
      <p>Updated May 2, 2024 9:41 AM</p>
      ${prose(6)}`);
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('Updated May 2');
    expect(text.startsWith('The harbour commission met on Tuesday')).toBe(true);
    expect(author).toBe('Jane Doe');
  });

  it('removes a pull quote that repeats a sentence of the article, and keeps a quote of a source', () => {
    const repeated = 'The harbour commission met on Tuesday';
    const source = 'No structure shall be raised on the quay without the consent of the harbour master in writing.';
    const { text, contentHtml } = extract(`${prose(3)}<blockquote class="pull-quote">${prose(1)}</blockquote>
      <blockquote><p>${source}</p></blockquote>${prose(3, 3)}`);
    const without = extract(`${prose(3)}<blockquote><p>${source}</p></blockquote>${prose(3, 3)}`).text;
    expect(text.split(repeated).length).toBe(without.split(repeated).length);
    expect(text).toContain(source);
    expect(contentHtml.match(/<blockquote/g)).toHaveLength(1);
  });

  it('removes share bars, ad slots and a repeated headline inside the article', () => {
    const { text } = extract(`<div class="story-head"><h2>Sea wall plan goes to a vote</h2></div>
      <div class="share-tools"><a href="https://facebook.com/share">Facebook</a> <a href="mailto:?x">Email</a></div>
      ${prose(3)}<p>Advertisement</p>${prose(3, 3)}`);
    expect(text).not.toMatch(/Sea wall plan goes to a vote|Facebook|Email|Advertisement/);
    expect(text).toContain('The harbour commission met on Tuesday');
  });

  it("removes a widget's empty state, a toggle's label, a post's counters and a prompt to sign in; keeps what says the same in a sentence", () => {
    const { text } = extract(`${prose(3)}<div class="posts-widget"><p>No posts</p></div>${prose(2, 3)}
      <section><h3>Reviews</h3><p>No Reviews Yet</p><p>Be the first to review this item!</p></section>
      <p>No comments yet from the harbour master, who was travelling.</p><p>The survey found <b>no results</b> of note.</p>
      <blockquote><p>The wall will hold.</p><div class="expand">Click to expand...</div></blockquote><p>Show more +</p>
      <p>You need to be a member in order to leave a comment</p><p>Log in to reply</p>
      <div class="post-actions"><span>6 Likes</span></div><p>1,204 views</p><p>9 Comments</p>${prose(1, 5)}`);
    expect(text).not.toMatch(/No posts|No Reviews Yet|Be the first|Click to expand|Show more|a member|Log in|Likes|\d views/);
    expect(text).toMatch(/^9 Comments$/m);
    expect(text).toContain('No comments yet from the harbour master');
    expect(text).toContain('The survey found no results of note.');
  });

  it("removes a grid's sort control and its count of what it shows; keeps a sentence about sorting and a plain count", () => {
    const { text } = extract(`${prose(2)}<p>Showing 24 of 514 results</p><p><span>Sort: Best Match</span></p>
      <div><p>Sort &amp; Filter</p></div><p>Sort by</p><div>loaded 338 results</div>
      <p>Sort the sandbags by weight before the tide turns.</p><p>514 results</p>${prose(2, 2)}`);
    expect(text).not.toMatch(/Showing 24|Best Match|Sort & Filter|Sort by|loaded 338/);
    expect(text).toContain('Sort the sandbags by weight before the tide turns.');
    // A count alone stays: truths keep a collection's "400 Products" as often as not.
    expect(text).toMatch(/^514 results$/m);
  });

  it("removes a shop's buttons left as lines of text; keeps a sentence that says the same", () => {
    const { text } = extract(`${prose(2)}<p><a href="/cart/add?id=7" class="btn">Add to Cart</a></p><p><span>Add to wishlist</span></p>
      <p><a href="#">Quick view</a></p><h3>Recently viewed</h3><p>Ask a question</p>
      <p>Add to cart before noon and the sandbags leave the same day.</p>${prose(2, 2)}`);
    expect(text).not.toMatch(/Add to Cart$|Add to wishlist|Quick view|Recently viewed|Ask a question/m);
    expect(text).toContain('Add to cart before noon and the sandbags leave the same day.');
  });

  it("removes what a script shows until it has loaded a part (\"Loading prices for your region…\"); keeps a line about loading", () => {
    const { text } = extract(`${prose(2)}<p>Loading specifications…</p><div>Loading prices for your region…</div>
      <p><span>Loading paragraph...</span></p><h4>Loading Initial Program Loader</h4>${prose(2, 2)}`);
    expect(text).not.toMatch(/Loading (?:specifications|prices|paragraph)/);
    expect(text).toContain('Loading Initial Program Loader');
  });

  it("removes a forum member's rank and post count, a thread's counts and last reply, and the heading of its similar threads", () => {
    const post = (n: number) => `<div class="post"><div class="user"><p><a href="/u/ada">ada</a></p><p>Senior Member</p>
      <p>Posts: 4,958</p><p>Reaction score: 1.2k</p></div>${prose(2, n)}</div>`;
    const stats = '<ul class="stats"><li>Replies 154</li><li>Views 26.2k</li><li>Last Reply Sep 26</li></ul><p>Last Post: 12-17-2005, 07:54 AM</p><h4>Top Posters In This Topic</h4>';
    const { text } = extract(`${stats}${post(0)}${post(2)}<h3>Similar threads</h3><p>Every member of the club signed the letter.</p>`);
    expect(text).not.toMatch(/Senior Member|Posts: 4,958|Reaction score|Similar threads|Replies 154|Views 26|Last Reply|Last Post|Top Posters/);
    expect(text).toContain('Every member of the club signed the letter.');
  });

  it('keeps a code block’s words that read like a page’s buttons: Pygments’ span around print is code', () => {
    // Flask's quickstart (WCXB 0662) printed "(url_for('index'))": the span around `print` went as a Print button.
    const { text } = extract(`${prose(3)}<pre><code><span class="k">with</span> app.test_request_context():
    <span class="nb">print</span><span class="p">(</span>url_for(<span class="s1">'index'</span>))
    stream.<span class="n">close</span>()
    <code><span>email</span></code> = <span class="s1">'ada@example.com'</span></code></pre>
      <p>Print</p>${prose(3, 3)}`);
    expect(text).toContain("    print(url_for('index'))\n    stream.close()\n    email = 'ada@example.com'");
    // The same word as a line of the page's own, outside code, still goes.
    expect(text).not.toMatch(/^Print$/m);
  });

  it('removes a table of contents with its label, or the label the furniture rules left alone; keeps a box\'s contents', () => {
    const toc = `<p class="toc-title">Table of Contents</p><ul><li><a href="#tides">Tides</a></li>
      <li><a href="${URL}#funding">Funding</a></li></ul>`;
    const { text } = extract(`${prose(2)}${toc}<h2 id="tides">Tides</h2>${prose(2, 2)}<h2 id="funding">Funding</h2>${prose(1, 4)}
      <div><span><strong>In this article:</strong></span></div>${prose(1, 5)}
      <h3>Contents</h3><ul><li>Two sandbags</li><li>A shovel</li></ul>`);
    expect(text).not.toMatch(/Table of Contents|In this article/);
    expect(text.match(/^Tides$/gm)).toHaveLength(1);
    expect(text.match(/^Funding$/gm)).toHaveLength(1);
    expect(text).toMatch(/^Contents$/m);
    expect(text).toContain('Two sandbags');
    // A list after the label that leads elsewhere is not the article's contents, and stays.
    const elsewhere = extract(`${prose(3)}<p>On this page</p><ul><li><a href="/tides">Tides</a> and the harbour wall's
      sea defences, explained at length for the readers of the weekly edition</li></ul>${prose(2, 3)}`).text;
    expect(elsewhere).not.toMatch(/On this page/);
    expect(elsewhere).toContain("the harbour wall's");
  });

  it('keeps a section whose id its heading\'s permalink points at, whatever words the id has; a related-posts section goes', () => {
    // Flask's quickstart (WCXB 0662) lost "Cookies", the kernel's patch guide (2874) "Respond to review comments":
    // Sphinx makes a section's id of its heading's words, and Readability and the furniture rules read ids.
    const section = (id: string, heading: string, offset: number) =>
      `<section id="${id}"><h2>${heading}<a class="headerlink" href="#${id}">¶</a></h2>${prose(1, offset)}</section>`;
    const { text, contentHtml } = extract(`<section id="intro"><h2>Intro</h2>${prose(3)}</section>
      ${section('cookies', 'Cookies', 1)}${section('respond-to-review-comments', 'Respond to review comments', 2)}
      <h3 id="social-benefits"><a href="#social-benefits">Social benefits</a></h3>${prose(1, 4)}
      <section id="related-posts"><h2>Related posts</h2><ul><li><a href="/a">Ferry fares rise</a></li>
      <li><a href="/b">Quay reopens</a></li></ul></section>`);
    expect(text).toMatch(/^Cookies¶$/m);
    expect(text).toMatch(/^Respond to review comments¶$/m);
    expect(text).toMatch(/^Social benefits$/m);
    expect(text).not.toMatch(/Related posts|Ferry fares/);
    // The ids are the sections' again, where the permalinks and a table of contents find them.
    expect(contentHtml).toContain('<section id="cookies">');
    expect(contentHtml).toContain('<h3 id="social-benefits">');
    expect(contentHtml).not.toContain('data-folio');
  });

  it("keeps a heading whose own names read like the page's frame to Readability; its section's names still decide", () => {
    // Readability drops an element named `header`, `extra`, `footer`… with all it holds: a rule for containers.
    const { text, contentHtml } = extract(`<h2>Intro</h2>${prose(3)}
      <div class="specs"><h2 class="section-header">Specifications</h2>${prose(1, 1)}</div>
      <h3 class="extra-info__title" id="footer-note">Care and cleaning</h3>${prose(1, 2)}
      <section class="related-posts"><h2 class="section-header">Related posts</h2><ul><li><a href="/a">Ferry fares rise</a></li>
      <li><a href="/b">Quay reopens</a></li></ul></section>`);
    expect(text).toMatch(/^Specifications$/m);
    expect(text).toMatch(/^Care and cleaning$/m);
    expect(text).not.toMatch(/Related posts|Ferry fares/);
    // The names are the headings' again on the content kept.
    expect(contentHtml).toContain('id="footer-note"');
    expect(contentHtml).not.toContain('data-folio');
  });

  it('removes a form that posts what a reader writes, and keeps a comment a form without a method wraps', () => {
    const reply = `<form action="/questions/12/answer/submit" method="POST"><h2>Your Answer</h2>
      <h3>Post as a guest</h3><label for="email">Email</label><p>Required, but never shown</p>
      <p>By clicking Post Your Answer, you agree to our terms of service and privacy policy.</p></form>`;
    const comment = `<form action="#" class="usertext"><div class="md"><p>The quay floods twice a winter already.</p></div></form>`;
    const { text } = extract(`${prose(6)}${comment}${reply}`);
    expect(text).not.toMatch(/Your Answer|Post as a guest|never shown|By clicking/);
    expect(text).toContain('The quay floods twice a winter already.');
    expect(text).toContain('The harbour commission met on Tuesday');
  });

  it('removes a label scrambled with hidden identifiers (a carousel\'s "Sponsored")', () => {
    const noise = (i: number) => `${String(i).padStart(8, '0')}-4c9a-4d81-ab3d-bd495b550b12`;
    const label = [...'Sponsored'].map((letter, i) => `<span>${letter}</span><span>${noise(i)}</span>`).join('');
    const { text } = extract(`${prose(6)}<div>${label}</div>`);
    expect(text).not.toContain('bd495b550b12');
    expect(text).toContain('The harbour commission met on Tuesday');
  });

  it('removes a line saying a widget needs JavaScript, whatever the widget, but not a sentence about JavaScript', () => {
    const { text } = extract(`${prose(3)}<p>This slideshow requires JavaScript.</p>
      <p>This interactive map requires JavaScript</p><p>Please enable JavaScript to view the comments</p>
      <p>The council's new booking site requires JavaScript, which older library computers cannot run.</p>${prose(3, 3)}`);
    expect(text).not.toMatch(/slideshow|interactive map|enable JavaScript/);
    expect(text).toContain('booking site requires JavaScript, which older library computers cannot run.');
  });

  it("removes lists and lines of links to the site's other stories, with their label", () => {
    const { text } = extract(`${prose(5)}
      <p>More:</p>
      <ul><li><a href="/2024/04/ferry.html">Ferry timetable changes for summer</a></li>
          <li><a href="https://news.example.com/2024/04/pier.html">Pier repairs finish early</a></li></ul>
      <p><a href="/2024/03/storm.html">WHAT THE LAST STORM COST THE TOWN</a></p>
      <p>Related: <a href="/2024/02/grant.html">The state grant, explained</a></p>
      ${prose(1, 5)}`);
    expect(text).not.toMatch(/More:|Ferry timetable|Pier repairs|LAST STORM|Related:|grant, explained/);
    expect(text).toContain('A final vote is expected next month');
  });

  it('removes a list written as lines of links (one headline a line, broken by <br>), with its label', () => {
    const { text } = extract(`${prose(5)}
      <p><strong>DON'T MISS</strong></p>
      <p><a href="/2024/04/ferry.html">Ferry timetable changes for the summer season announced by the operator</a> [<strong>INSIGHT]<br></strong>
         <a href="/2024/04/pier.html">Pier repairs finish two weeks early and under the agreed budget</a> [<strong>VIDEO]<br></strong>
         <a href="/2024/03/storm.html">What the last storm cost the town, street by street</a><strong> [REACTION]</strong></p>
      ${prose(1, 5)}`);
    expect(text).not.toMatch(/DON'T MISS|Ferry timetable|Pier repairs|last storm|INSIGHT|REACTION/);
    expect(text).toContain('A final vote is expected next month');
  });

  it('keeps links out of the site: sources and references are the article’s own', () => {
    const { text } = extract(`${prose(5)}
      <p>Sources:</p>
      <ul><li><a href="https://state.example.org/resilience-report">State resilience report</a></li>
          <li><a href="https://engineers.example.net/wall-survey">Sea wall survey, 2023</a></li></ul>`);
    expect(text).toContain('• State resilience report');
    expect(text).toContain('• Sea wall survey, 2023');
  });

  it('marks captions: in the HTML under their image, out of the plain text, back in with includeLinks', () => {
    const { text, contentHtml } = extract(`${prose(3)}
      <div class="photo"><img src="/img/wall.jpg" alt="The wall"><div class="image-caption">The wall in 1931. Photo: Town archive</div></div>
      ${prose(3, 3)}`);
    expect(text).not.toContain('The wall in 1931');
    const caption = JSDOM.fragment(contentHtml).querySelector('figcaption');
    expect(caption?.textContent).toBe('The wall in 1931. Photo: Town archive');
    expect(htmlToText(contentHtml, { includeLinks: true })).toContain('The wall in 1931. Photo: Town archive');
  });

  it("keeps a heading whose class names a caption type size as a heading; a heading that captions a picture is its caption", () => {
    const { text, contentHtml } = extract(`${prose(2)}
      <h2 class="wt-text-caption">The earned credit for the harbour works</h2>${prose(2, 2)}
      <div class="frame"><img src="/img/wall.jpg" alt="The wall"><h6 class="imageframe-caption-title">The wall in 1931</h6></div>
      <figure><img src="/img/quay.jpg" alt="The quay"><h3 class="caption">The quay at low tide</h3></figure>${prose(2, 4)}`);
    expect(text).toContain('The earned credit for the harbour works');
    expect(JSDOM.fragment(contentHtml).querySelector('h2')?.textContent).toBe('The earned credit for the harbour works');
    expect(text).not.toContain('The wall in 1931');
    expect(text).not.toContain('The quay at low tide');
    const captions = Array.from(JSDOM.fragment(contentHtml).querySelectorAll('figcaption'), (c) => c.textContent);
    expect(captions).toEqual(['The wall in 1931', 'The quay at low tide']);
  });

  it('keeps an embedded post the article quotes', () => {
    const { text } = extract(`${prose(3)}
      <div class="social-media-embed"><blockquote class="twitter-tweet"><p>The wall is older than my grandmother.
      <a href="https://t.co/abc">pic.twitter.com/abc</a></p>— Harbour Resident (@resident) <a href="https://twitter.com/resident/status/1">May 1, 2024</a></blockquote></div>
      ${prose(3, 3)}`);
    expect(text).toContain('The wall is older than my grandmother.');
    expect(text).toContain('Harbour Resident (@resident)');
  });

  it('removes the promotional sign-off but not the last paragraph of the story', () => {
    const { text } = extract(`${prose(6)}<p>Follow us on Twitter and sign up for our newsletter.</p>`);
    expect(text).not.toContain('Follow us');
    expect(text.endsWith('has lost nearly a third of its original height.')).toBe(true);
  });

  it('keeps sentences that only begin like notices or bylines', () => {
    const lines = [
      'Published in 2019, the survey found the wall had settled.',
      'Copyright law does not cover the design of a sea wall.',
      'Reporting by the Gazette in March prompted the review.',
      'By Tuesday, the tide had reached the library steps.',
      'On November 18, 2019, the council first heard the plan.',
    ];
    const { text } = extract(`${lines.map((line) => `<p>${line}</p>`).join('')}${prose(6)}`);
    for (const line of lines) expect(text).toContain(line);
  });

  it('removes stamps, filing notes and copyright lines', () => {
    const { text } = extract(`${prose(3)}<p>Posted: Fri 6:45 PM, Feb 16, 2018 |</p>${prose(3, 3)}
      <p>Filed under: Harbour | Council</p><p>Copyright © 2024 The Harbour Gazette</p>`);
    expect(text).not.toMatch(/Posted:|Filed under|Copyright/);
  });

  it('reads a class that says what an element lacks, hides or is eligible for as its state: a card whose ad is hidden stays', () => {
    const cards = (cls: string) => [0, 1, 2, 3, 4, 5].map((i) => `<div class="summary-card ${cls}"><h3>Quay notice ${i + 1}</h3>${prose(1, i).replace('<p>', `<p>Notice ${i + 1} of the quay. `)}</div>`).join('\n');
    const kept = extract(`${prose(2)}${cards('hide-read-more-ad')}${prose(2, 2)}`).text;
    const dropped = extract(`${prose(2)}${cards('read-more-ad')}${prose(2, 2)}`).text;
    expect(kept.match(/Notice \d of the quay/g)).toHaveLength(6);
    expect(dropped).not.toContain('of the quay');
    expect(dropped).toContain('The harbour commission met on Tuesday');
    // A shop's product card that may be bought on subscription is a product, not a subscription box.
    const eligible = extract(`${prose(2)}${cards('subscription-eligible')}${prose(2, 2)}`).text;
    expect(eligible.match(/Notice \d of the quay/g)).toHaveLength(6);
    expect(extract(`${prose(2)}${cards('subscription-box')}${prose(2, 2)}`).text).not.toContain('of the quay');
    const element = new JSDOM('<div class="hide-read-more-ad noSidebar without-comments has-menu post sidebar-open shareEnabled"></div>').window.document.querySelector('div')!;
    expect(classWords(element)).toEqual(['has', 'menu', 'post']);
  });

  it("reads no furniture word into a CSS module's hash, and still reads BEM's parts", () => {
    const answer = 'Most of the cost is covered by the state resilience grant, and the town pays the rest from its reserve.';
    const { text } = extract(`${prose(3)}<details open class="AccordionTextItem_item__adF2E"><summary>Who pays for the wall?</summary>
      <p>${answer}</p></details>${prose(3, 3)}`);
    expect(text).toContain(answer);
    const words = (names: string) => classWords(new JSDOM(`<div class="${names}"></div>`).window.document.querySelector('div')!);
    expect(words('AccordionTextItem_item__adF2E FAQ_accordionButton__P4v3H')).toEqual(['accordion', 'text', 'item', 'item', 'faq', 'accordion', 'button']);
    expect(words('share__ad card__title')).toEqual(['share', 'ad', 'card', 'title']);
  });

  it('removes a tab list of labels, and keeps one that holds its panels of prose (an FAQ in tabs)', () => {
    const tabs = `<div role="tablist"><a role="tab" href="#a">Schedule</a> <a role="tab" href="#b">Costs</a></div>`;
    const faq = `<div role="tablist"><div class="faq"><h3>Who pays for the wall?</h3>
      <div>Most of the cost is covered by the state resilience grant, and the town pays the rest from its reserve.</div></div>
      <div class="faq"><h3>When does the work start?</h3>
      <div>Work on the north quay starts after the fishing season ends, so that the fleet keeps its moorings.</div></div></div>`;
    const { text } = extract(`${prose(3)}${tabs}${faq}${prose(3, 3)}`);
    expect(text).not.toMatch(/Schedule|Costs/);
    expect(text).toContain('Most of the cost is covered by the state resilience grant');
    expect(text).toContain('Work on the north quay starts after the fishing season ends');
  });

  it('never removes a furniture-named wrapper that holds the article itself', () => {
    const { text } = extract(`<div class="article-share-enabled social-wrapper">${prose(6)}</div>`);
    expect(text.split('\n\n')).toHaveLength(6);
  });
});
