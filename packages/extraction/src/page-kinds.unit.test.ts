import { describe, expect, it } from 'vitest';
import { extractArticle, NoArticleError } from './index.ts';
import { prose } from './test-pages.ts';

/**
 * Pages that are not one article — a forum thread, a product, a list, a grid — convert with their main content;
 * only a page with nothing to keep is refused (NoArticleError, the interface's parse_failed). Hand-written pages.
 */
const URL = 'https://shop.example.org/somewhere/page';

const frame = (main: string, title = 'Somewhere') => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<header class="site-header"><a href="/">Example</a>
  <nav><ul><li><a href="/a">Shop</a></li><li><a href="/b">Help</a></li><li><a href="/c">Blog</a></li></ul></nav></header>
${main}
<footer class="site-footer"><p>© 2025 Example Ltd. All rights reserved.</p>
  <ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul></footer>
</body></html>`;

const REPLIES = [
  'I had the same problem after the update, the pump stopped priming until I reset the controller twice.',
  'Check the inlet filter first; mine was clogged with sand and the pressure dropped to almost nothing.',
  'Thanks, cleaning the filter fixed it here as well, it primes in under a minute now.',
  'For what it is worth the manual says to replace that filter every spring, which nobody ever does.',
  'Mine still loses prime overnight, so I suspect the foot valve rather than the filter in my case.',
];

describe('extractArticle: pages that are not one article', () => {
  it('keeps every reply of a thread, not only the question', () => {
    // Replies marked up as comments, as question-and-answer sites do: Readability takes "comment" for page furniture.
    const posts = REPLIES.map((text, i) => `<div class="comment" id="reply-${i}">
        <div class="comment-meta"><a href="/u/user${i}">user${i}</a> <span>May ${i + 1}, 2025</span></div>
        <div class="comment-text"><p>${text}</p></div></div>`).join('\n');
    const html = frame(`<main><h1>Pump will not prime after firmware update</h1>
      <div class="post" id="op"><div class="body"><p>Since yesterday's firmware update my garden pump will not prime at all.
      It runs, hums and moves no water. I have bled the line, checked the seals and restarted it several times, and
      nothing changed, so I am asking here before I take it apart on the bench this weekend.</p></div></div>
      ${posts}</main>`, 'Pump will not prime after firmware update - Example Forum');
    const article = extractArticle(html, { url: URL });
    for (const reply of REPLIES) expect(article.text).toContain(reply);
    expect(article.text).toContain('Since yesterday');
    expect(article.text).not.toContain('All rights reserved');
  });

  it("keeps a thread's posts without the signature under each", () => {
    const posts = REPLIES.map((text, i) => `<div class="post-row"><div class="post-body"><p>${text}</p></div>
        <div class="post-signature"><p>My rig: pump model ${i}, controller v2, two filters.</p><p>Sent from my garden shed.</p></div></div>`).join('\n');
    const html = frame(`<div class="thread"><h1>Pump will not prime after firmware update</h1>${posts}</div>`,
      'Pump will not prime after firmware update - Example Forum');
    const article = extractArticle(html, { url: URL });
    for (const reply of REPLIES) expect(article.text).toContain(reply);
    expect(article.text).not.toContain('Sent from my garden shed');
  });

  it('keeps a product description with its specification table', () => {
    const html = frame(`<main><div class="product">
      <h1>Trail Kettle 1.2 L</h1><p class="price">€39.00</p>
      <div class="description"><p>A titanium kettle that nests a gas canister and a small stove, with a folding handle
      and a lid that doubles as a cup. Light enough for long trips and tough enough for daily use at camp.</p></div>
      <ul class="tabs"><li><a href="#d">Description</a></li><li><a href="#s">Specifications</a></li><li><a href="#r">Reviews</a></li></ul>
      <div class="tab-panel" id="s"><h2>Specifications</h2>
      <table><tr><th>Weight</th><td>142 g</td></tr><tr><th>Volume</th><td>1.2 litres</td></tr>
      <tr><th>Material</th><td>Grade 2 titanium</td></tr><tr><th>Diameter</th><td>118 mm</td></tr></table></div>
      </div></main>`, 'Trail Kettle 1.2 L');
    const article = extractArticle(html, { url: URL });
    expect(article.text).toContain('A titanium kettle');
    expect(article.text).toContain('Grade 2 titanium');
    expect(article.contentHtml).toContain('<table');
  });

  it("leaves out the other products a product page offers, and keeps a category's grid of them", () => {
    const cards = [['Titanium mug 450 ml', '24.00', 'mug'], ['Folding spork, long handle', '9.50', 'spork'],
      ['Canister stove, piezo ignition', '45.00', 'stove'], ['Windscreen for canister stoves', '15.00', 'screen']]
      .map(([name, price, slug]) => `<li class="card"><a href="/p/${slug}">${name}</a> <span class="price">€${price}</span> <span>Rated 4.5 of 5 by 120 campers</span></li>`).join('');
    const product = `<main><div class="product"><h1>Trail Kettle 1.2 L</h1><p class="price">€39.00</p>
      <div class="description"><p>A titanium kettle that nests a gas canister and a small stove, with a folding handle
      and a lid that doubles as a cup. Light enough for long trips and tough enough for daily use at camp.</p>
      <p>It boils a litre in about four minutes on a small canister stove, and its lid strains pasta.</p></div>
      <h2>Customers also viewed</h2><ul class="carousel">${cards}</ul></div></main>`;
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Kettle 1.2 L"}</script>';
    const stated = extractArticle(frame(product, 'Trail Kettle 1.2 L').replace('</head>', `${ld}</head>`), { url: URL });
    expect(stated.text).toContain('A titanium kettle');
    expect(stated.text).not.toContain('Folding spork');
    // The same cards, on a page that does not state one product, are what it lists.
    const category = extractArticle(frame(`<main><h1>Camp kitchen</h1><p>Everything for cooking outdoors.</p><ul class="grid">${cards}</ul></main>`), { url: URL });
    expect(category.text).toContain('Folding spork');
  });

  it("keeps a grid of products whose names are headings in links, beside a longer guide on the same page", () => {
    // Readability keeps the guide; the main region holds the grid too, and only with its products' names does it
    // hold enough more to stand in (before, the names went as lines of links and the grid with them).
    const products = [['Oak bookcase, 80 cm', '79.00'], ['Wall shelf, birch veneer', '24.99'], ['Cube shelving unit, 4 cubes', '45.00'],
      ['Corner bookcase, white', '99.00'], ['Ladder shelf, bamboo', '59.00'], ['Glass-door cabinet, black-brown', '149.00'],
      ['Narrow bookcase, 40 cm', '49.00'], ['Floating shelf, oak effect', '19.99'], ['Wall-mounted cabinet with sliding doors', '89.00'],
      ['Open shelving unit, steel and pine', '129.00'], ['Picture ledge, walnut', '14.99'], ['Display cabinet with lighting', '199.00']];
    const cards = products.map(([name, price], i) => `<div class="product-card"><a href="/p/${i}"><img src="/img/${i}.jpg" alt=""></a>
        <div class="product-card-title"><a href="/p/${i}"><h4>${name}</h4></a></div>
        <p class="product-fit">Flat-packed, assembly needed</p><p class="product-price">€${price}</p></div>`).join('\n');
    const guide = `<div class="seo-text"><h2>Choosing shelving</h2><p>A bookcase earns its place when it fits the room and the
      things it holds. Measure the wall, the height of your tallest books and the depth of whatever else will live on it,
      and leave a hand's width free above each row so that it can be reached and dusted without a fight.</p>
      <p>Solid wood carries heavy loads across wide spans; veneered board is lighter and cheaper and does well with shorter
      shelves. Metal frames suit a kitchen or a garage, where a wipe-clean surface and open backs let air move around jars,
      tins and tools.</p><p>Tall units should be fixed to the wall with the fittings that come with them. A loaded bookcase
      that tips can do real harm, and the fittings take a few minutes to put up with a drill and two screws.</p></div>`;
    const html = frame(`<main><h1>Shelving</h1><div class="intro"><p>Shelves and bookcases for every room, from a single wall
      shelf to a wall of cubes, in solid wood, veneer and metal. Most of them come flat-packed with their fittings.</p></div>
      <div class="product-grid">${cards}</div>${guide}</main>`, 'Shelving');
    const article = extractArticle(html, { url: URL });
    for (const [name, price] of products) {
      expect(article.text).toContain(name);
      expect(article.text).toContain(price);
    }
    expect(article.text).toContain('Tall units should be fixed to the wall');
  });

  it("leaves out a category's filter panel, and keeps a guide in a block its markup names for filters", () => {
    const cards = ['Titanium mug 450 ml', 'Folding spork, long handle', 'Canister stove, piezo ignition', 'Windscreen for canister stoves']
      .map((name, i) => `<li class="card"><a href="/p/${i}">${name}</a> <span class="price">€${12 + i}.00</span> <span>Rated 4.5 of 5 by 120 campers</span></li>`).join('');
    const option = (facet: string, value: string) => `<li><label><input type="checkbox"> Filter ${facet} with value ${value}</label></li>`;
    const panel = `<div class="plp-facets"><h2>Refine by</h2>
      <div class="facet"><h3>Size</h3><ul>${['XS', 'S', 'M', 'L', 'XL'].map((v) => option('Size', v)).join('')}</ul></div>
      <div class="facet"><h3>Capacity</h3><ul>${['4-1/4 to 4-3/4 in (11 to 12 cm)', '13/16 to 1-1/16 in (21 to 27 mm)'].map((v) => option('Capacity', v)).join('')}</ul></div></div>`;
    const guide = `<div class="filters-accordion"><h2>Choosing a camp kitchen</h2><p>Start from the stove: a canister stove
      is light and quick, while a liquid-fuel stove keeps working in the cold and at altitude.</p></div>`;
    const html = frame(`<main><h1>Camp kitchen</h1>${panel}<ul class="grid">${cards}</ul>${guide}</main>`);
    const { text } = extractArticle(html, { url: URL });
    expect(text).toContain('Folding spork');
    expect(text).not.toMatch(/Refine by|Filter Size|with value|21 to 27 mm/);
    expect(text).toContain('a liquid-fuel stove keeps working in the cold');
  });

  const headlines = ['Left-handed people are more competitive', 'Sleep apnea often goes undetected', 'A galaxy made of dark matter',
    'The fight over climate rules begins', 'Why octopuses dream', 'A new map of the ocean floor'];
  /** A section's short headlines beside a cookie-consent panel of more words, the panel's element opened by `opening`. */
  const withConsentPanel = (opening: string) => {
    const items = headlines.map((h, i) => `<div class="summary-item"><h3>${h}</h3>
      <p>What the study found, and why it matters. <a href="/story/${i}">Read the story</a></p></div>`).join('');
    const purposes = ['Targeted advertising', 'Performance cookies', 'Audience measurement', 'Personalised content']
      .map((p) => `<h3>${p}</h3><p>We and our partners store and access information on your device and process personal data,
        such as browsing data and device identifiers, for ${p.toLowerCase()}, measurement and services development.</p>`).join('');
    const modal = `${opening}<div class="panel-body"><h2>We care about your privacy</h2>${prose(2)}${purposes}</div></div>`;
    // The site's menu: the modal is a minority of the page's text, as on a real section page.
    const menu = `<nav class="mega-menu"><ul>${Array.from({ length: 80 }, (_, i) => `<li><a href="/s/${i}">Section number ${i}</a></li>`).join('')}</ul></nav>`;
    return frame(`${menu}<main><h1>Science</h1><div class="river">${items}</div></main>${modal}`, 'Science');
  };

  it("leaves out a cookie-consent modal that outweighs a listing's short headlines", () => {
    const { text } = extractArticle(withConsentPanel('<div id="privacy" role="alertdialog" aria-modal="true">'), { url: URL });
    for (const headline of headlines) expect(text).toContain(headline);
    expect(text).not.toMatch(/care about your privacy|our partners store|Audience measurement/);
  });

  it('leaves out a consent panel known by its name alone, which Readability would choose inside', () => {
    // No ARIA: the panel's name is on the overlay around the text Readability keeps, out of the furniture rules' sight.
    const { text } = extractArticle(withConsentPanel('<div class="modal_ modal-full-sm modal_cookie-consent">'), { url: URL });
    for (const headline of headlines) expect(text).toContain(headline);
    expect(text).not.toMatch(/care about your privacy|our partners store|Audience measurement/);
  });

  it('keeps a page that shows its content in a modal overlay', () => {
    const post = `<div role="dialog" aria-modal="true"><article><h1>Rain gardens</h1>${prose(4)}</article></div>`;
    const { text } = extractArticle(frame(`<main></main>${post}`, 'Rain gardens'), { url: URL });
    expect(text).toContain('The harbour commission');
  });

  it('keeps every item of a listing, links and all', () => {
    const courses = ['Soil science', 'Pruning fruit trees', 'Composting at home', 'Rainwater harvesting', 'Seed saving', 'Hedge laying'];
    const items = courses.map((name, i) => `<li class="course-card"><h3><a href="/courses/${i}">${name}</a></h3>
      <p>A ${i + 2}-week evening course.</p><a href="/courses/${i}">Read more</a></li>`).join('\n');
    const html = frame(`<main><h1>Evening courses</h1><p>All our courses for the autumn term.</p>
      <ul class="course-list">${items}</ul></main>`, 'Evening courses');
    const article = extractArticle(html, { url: URL });
    for (const name of courses) expect(article.text).toContain(name);
    expect(article.contentHtml).toContain('<li');
  });

  it("keeps a category's index of its subcategories and its pages, lists of links under letters", () => {
    // A wiki's category page: its columns are lists of links to the site's own pages, which inside an article would
    // be a rail of related stories; here they are all there is, in two sections, so no one run of them is the page.
    const names = ['Ada', 'ALGOL', 'APL', 'BASIC', 'BCPL', 'C', 'COBOL', 'Curry', 'Dart', 'Eiffel', 'Elixir', 'Erlang',
      'Forth', 'Fortran', 'Go', 'Haskell', 'Icon', 'J', 'Java', 'Julia', 'Kotlin', 'Lisp', 'Logo', 'Lua'];
    const subcategories = ['Array languages', 'Assembly languages', 'Class-based languages', 'Concurrent languages',
      'Data-centric languages', 'Dynamic languages', 'Educational languages', 'Esoteric languages', 'Functional languages',
      'Graphics languages', 'Hardware description languages', 'Logic languages', 'Macro languages', 'Markup languages',
      'Multi-paradigm languages', 'Query languages', 'Scripting languages', 'Statically typed languages'];
    const columns = (entries: string[], suffix: string) => [...new Set(entries.map((n) => n[0]!))].map((letter) => `<div class="group">
      <h3>${letter}</h3><ul>${entries.filter((n) => n.startsWith(letter)).map((n) => `<li><a href="/wiki/${n}">${n}${suffix}</a></li>`).join('')}</ul></div>`).join('\n');
    const html = frame(`<main><h1>Category: Programming languages</h1>
      <h2>Subcategories</h2><p>This category has the following 18 subcategories.</p><div class="columns">${columns(subcategories, '')}</div>
      <h2>Pages in category</h2><p>The following 24 pages are in this category.</p><div class="columns">${columns(names, ' (programming language)')}</div>
      </main>`, 'Category: Programming languages');
    const article = extractArticle(html, { url: URL });
    for (const name of names) expect(article.text).toContain(`${name} (programming language)`);
    for (const name of subcategories) expect(article.text).toContain(name);
  });

  it('reads a thread that a page serves to readers without JavaScript inside <noscript>', () => {
    const thread = REPLIES.map((text) => `<div class="crawler-post"><p>${text}</p></div>`).join('');
    const html = frame(`<div id="app"></div><noscript><div id="main-outlet"><h1>Pump will not prime</h1>${thread}</div></noscript>`);
    const article = extractArticle(html, { url: URL });
    for (const reply of REPLIES) expect(article.text).toContain(reply);
  });

  it("leaves out a thread's notice to readers without JavaScript, however long the notice", () => {
    // NodeBB's, word for word: 200 characters and more, as much as a short thread served inside <noscript>.
    const notice = `<noscript><div class="alert"><p>Your browser does not seem to support JavaScript. As a result, your
      viewing experience will be diminished, and you have been placed in <strong>read-only mode</strong>.</p>
      <p>Please download a browser that supports JavaScript, or enable it if it's disabled (i.e. NoScript).</p></div>
      </noscript>`;
    const thread = REPLIES.map((text) => `<div class="post"><p>${text}</p></div>`).join('');
    const article = extractArticle(frame(`<main>${notice}<h1>Pump will not prime</h1>${thread}</main>`), { url: URL });
    for (const reply of REPLIES) expect(article.text).toContain(reply);
    expect(article.text).not.toMatch(/JavaScript|read-only mode/);
  });

  it('converts a page whose main content is short', () => {
    const html = frame('<main><h1>Opening hours</h1><p>We are open Monday to Friday, nine to five.</p></main>', 'Opening hours');
    expect(extractArticle(html, { url: URL }).text).toContain('We are open Monday to Friday, nine to five.');
  });

  it('converts a page whose content waits in a hidden wrapper for a script to reveal it', () => {
    const html = frame(`<div class="lockdown-content" style="display:none"><h1>Trail Kettle 1.2 L</h1>
      <p>A titanium kettle that nests a gas canister and a small stove, with a folding handle and a lid that doubles
      as a cup.</p><p>Weight 142 g. Volume 1.2 litres. Grade 2 titanium.</p></div>`, 'Trail Kettle 1.2 L');
    const article = extractArticle(html, { url: URL });
    expect(article.text).toContain('A titanium kettle that nests a gas canister');
    expect(article.text).toContain('Grade 2 titanium');
  });

  it('keeps an article to itself when the page states it is one, and keeps the list around it when it does not', () => {
    // Cards that are links, as a list of stories is: Readability leaves them out, the main region holds them.
    const teasers = Array.from({ length: 8 }, (_, i) => `<div class="card"><a href="/story/${i}"><h3>Story number ${i}</h3>
      <p>A summary of another story on the site, long enough to read as prose: what happened, where it happened and
      who said what about it at the meeting on the quay last week (${i}).</p></a></div>`).join('');
    const body = `<main><article><h1>Sea wall plan goes to a vote</h1>${prose(6)}</article>
      <section class="more-stories">${teasers}</section></main>`;
    const stated = `<meta property="og:type" content="article">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Sea wall plan goes to a vote"}</script>`;
    const article = extractArticle(frame(body, 'Sea wall plan goes to a vote').replace('</head>', `${stated}</head>`), { url: URL });
    expect(article.text).toContain('harbour commission');
    expect(article.text).not.toContain('A summary of another story');
    const unstated = extractArticle(frame(body, 'Sea wall plan goes to a vote'), { url: URL });
    expect(unstated.text).toContain('A summary of another story');
  });

  it("keeps a short post to itself on a page whose og:type says article, where elsewhere the body around it stands in", () => {
    // Readability keeps the post (~120 words); the body without its frame holds more than three times as much (the
    // blog's sidebar lists), which on a page of short sections is the content and beside a post is not.
    const items = (topic: string) => Array.from({ length: 20 }, (_, i) => `<li>${topic} project number ${i + 1} from the archive</li>`).join('');
    const html = (head: string) => frame(`<div id="page"><div id="content"><div class="entry-content">
      <h1>Sea wall plan goes to a vote</h1>${prose(2)}</div><div class="post-meta">Filed under Harbour</div></div>
      <div class="comments-closed">Comments are closed.</div></div>
      <div id="secondary"><section class="about-me"><h3>About me</h3><ul>${items('Woodworking')}</ul></section>
      <div class="friends"><strong>Friends</strong><ul class="plain">${items('Gardening')}</ul></div></div>`, 'Sea wall plan goes to a vote')
      .replace('</head>', `${head}</head>`);
    const post = extractArticle(html('<meta property="og:type" content="article">'), { url: URL });
    expect(post.text).toContain('The harbour commission met on Tuesday');
    expect(post.text).not.toContain('project number');
    const page = extractArticle(html(''), { url: URL });
    expect(page.text).toContain('The harbour commission met on Tuesday');
    expect(page.text).toContain('Gardening project number 20 from the archive');
  });

  it('converts the whole of a page whose sections are unlike, not only the paragraph Readability keeps', () => {
    // A service page: an introduction in a paragraph, then services as a list, a definition list and another list.
    // Readability keeps the paragraph alone (34 words); the body without its frame holds several times as much.
    const team = (topic: string) => `Our ${topic} team works from the north quay every day of the season, with crews who
      know the water, the weather and the boats that use this harbour, and prices that stay the same from spring to autumn.`;
    const html = frame(`<div class="intro"><h1>Services</h1><p>North Quay Marina has looked after boats and the people
      who sail them since 1931, from a first lesson to a winter out of the water; every service is booked at the
      harbour office.</p></div>
      <ul class="services"><li><strong>Repairs.</strong> ${team('repairs')}</li><li><em>Mooring:</em> ${team('mooring')}</li></ul>
      <dl class="school"><dt>Sailing school</dt><dd>${team('sailing school')}</dd><dt>Fuel dock</dt><dd>${team('fuel dock')}</dd></dl>
      <ul class="extras"><li>${team('winter storage')} ${team('crane')}</li></ul>`, 'Services');
    const article = extractArticle(html, { url: URL });
    expect(article.text).toContain('looked after boats and the people who sail them since 1931');
    for (const topic of ['repairs', 'mooring', 'sailing school', 'fuel dock', 'winter storage', 'crane']) {
      expect(article.text).toContain(`Our ${topic} team works from the north quay`);
    }
    expect(article.text).not.toContain('All rights reserved');
  });

  it("keeps a landing page's hero header, and leaves out an article's header and a header of links", () => {
    // A header inside the content: on a service's page its headline and pitch, on an article its head (standfirst,
    // byline), which the document prints in a head of its own.
    const pitch = 'Moorings, repairs and winter storage for every boat in the harbour, booked in one place and looked after by one crew all year.';
    const body = `<main><header class="hero"><h1>Boat care at North Quay</h1><p>${pitch}</p></header>
      <header class="section-links"><a href="#moorings">Moorings</a> <a href="#repairs">Repairs</a></header>${prose(6)}</main>`;
    const service = extractArticle(frame(body, 'Boat care at North Quay'), { url: URL });
    expect(service.text).toContain(pitch);
    expect(service.text).toContain('harbour commission');
    expect(service.text).not.toMatch(/Moorings\s+Repairs/);
    const article = extractArticle(frame(body, 'Boat care at North Quay')
      .replace('</head>', '<meta property="og:type" content="article"></head>'), { url: URL });
    expect(article.text).not.toContain(pitch);
    expect(article.text).toContain('harbour commission');
  });

  it("leaves out a blog post's comments, and keeps a thread's replies where the page states it is a discussion", () => {
    const comment = (i: number) => `<li class="comment" id="comment-${i}"><div class="comment-author">Reader ${i}</div>
      <div class="comment-content"><p>Thank you for this, I tried the garlic spray on my cabbages last summer and it kept the
      worms away for weeks, though the smell lingered on the porch longer than I expected it would (${i}).</p></div></li>`;
    const body = (head: string) => frame(`<main><article class="post"><h1>Garlic spray for cabbages</h1>${prose(5)}</article>
      <div id="comments" class="comments-area"><h2>24 Comments</h2><ol class="comment-list">
      ${Array.from({ length: 24 }, (_, i) => comment(i)).join('')}</ol></div></main>`, 'Garlic spray for cabbages').replace('</head>', `${head}</head>`);
    const post = extractArticle(body('<meta property="og:type" content="article">'), { url: URL });
    expect(post.text).toContain('harbour commission');
    expect(post.text).not.toContain('I tried the garlic spray');
    const thread = extractArticle(
      body('<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Garlic spray"}</script>'),
      { url: URL },
    );
    expect(thread.text).toContain('harbour commission');
    expect(thread.text).toContain('I tried the garlic spray on my cabbages last summer');
  });

  it('still refuses a page with nothing but its frame, or a lone image', () => {
    expect(() => extractArticle(frame('<main></main>'), { url: URL })).toThrow(NoArticleError);
    expect(() => extractArticle(frame('<div id="app"></div><noscript>Please enable JavaScript.</noscript>'), { url: URL }))
      .toThrow(NoArticleError);
    expect(() => extractArticle(frame('<div id="app"><img src="/spinner.gif" alt=""></div>'), { url: URL })).toThrow(NoArticleError);
  });

  it('keeps a gallery whose only words are its captions: the pictures are its content', () => {
    const figures = (n: number, caption: boolean) => Array.from({ length: n }, (_, i) =>
      `<figure><img src="https://cdn.example.org/photos/${i}.jpg" alt="">${caption ? `<figcaption>The north pier at dawn, day ${i + 1}</figcaption>` : ''}</figure>`).join('');
    for (const [main, images] of [[figures(12, true), 12], [figures(3, false), 3], [figures(1, true), 1]] as const) {
      const gallery = extractArticle(frame(`<main><h1>A week on the coast</h1>${main}</main>`), { url: URL });
      expect(gallery.contentHtml.match(/<img /g)).toHaveLength(images);
      if (main.includes('figcaption')) {
        expect(gallery.contentHtml).toContain('<figcaption>The north pier at dawn, day 1</figcaption>');
        // Its text is its captions, not nothing: they are all the words it has, and they are counted.
        expect(gallery.text.split('\n\n')[0]).toBe('The north pier at dawn, day 1');
        expect(gallery.wordCount).toBe(7 * (images as number));
      } else expect(gallery.wordCount).toBe(0);
    }
  });

  it("keeps a topic page's featured stories, with their pictures, above its list", () => {
    // Teasers with a picture and a class Readability reads as an aside (`media`), unlike the list's items below them.
    const stories = [
      ['Holiday travel record', 'Travel hits a new record this holiday season as more families drive to see relatives across the state'],
      ['Rental ring uncovered', 'A rental company was found to run a ring of thefts using cars it rented to visitors from out of town'],
      ['Cheapest way to fly', 'Flying may be the cheapest way to travel this spring according to an expert who tracks fares all year'],
      ['Used car prices', 'Used car prices keep rising and buyers say they are shocked by what dealers now ask for old sedans'],
      ['Airport fire', 'Several rental cars caught fire at the airport on Saturday and crews had the flames out within the hour'],
      ['Buying a used rental', 'Buying a used rental car can be a bargain if you check its history and have a mechanic look at it first'],
      ['Rental car shortage', 'The airport warns of a shortage of rental cars during spring break as demand outgrows the fleet here'],
      ['Companies review ties', 'Companies review their ties to a lobby group after a wave of criticism from customers and employees'],
    ];
    const featured = stories.slice(0, 3).map(([title, summary], i) => `<div class="teaser media">
        <div class="image"><a href="/news/story-${i}"><img src="/img/${i}.jpg" alt="${title}"></a></div>
        <div class="headline"><span class="ago">${i + 3} days ago</span><a href="/news/story-${i}"><h3>${title}</h3></a><p>${summary}</p></div></div>`);
    const listed = stories.slice(3).map(([title, summary], i) => `<li class="item"><span class="ago">${i + 3} years ago</span>
        <a href="/news/story-${i + 3}"><h4>${title}</h4></a><p>${summary}</p></li>`);
    const html = frame(`<div class="page"><h1>Car Rental</h1><div class="featured">${featured.join('\n')}</div>
      <ul class="list">${listed.join('\n')}</ul></div>`, 'Car Rental | Example News');
    const text = extractArticle(html, { url: URL }).text;
    for (const [title, summary] of stories) {
      expect(text).toContain(title);
      expect(text).toContain(summary);
    }
    expect(text).not.toContain('All rights reserved');
  });
});
