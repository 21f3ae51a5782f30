import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { parseDocument } from './document.ts';
import { pageStatements, statesOneProduct } from './main-region.ts';
import { markLinksElsewhere, removeOtherProducts } from './other-products.ts';

/** The text left of a product page's content once the other products' cards are removed. */
function cleaned(content: string, url = 'https://shop.example.com/p/trail-kettle'): string {
  const { document } = new JSDOM(`<body><div id="content">${content}</div></body>`, { url }).window;
  const root = document.getElementById('content')!;
  removeOtherProducts(root);
  return root.textContent!.replace(/\s+/g, ' ').trim();
}

const PRODUCT = `<h1>Trail Kettle 1.2 L</h1><p>€39.00</p>
  <p>A titanium kettle that nests a gas canister and a small stove, with a folding handle and a lid that doubles as a
  cup. Light enough for long trips and tough enough for daily use at camp, it boils a litre in four minutes.</p>
  <table><tr><th>Weight</th><td>142 g</td></tr><tr><th>Material</th><td>Grade 2 titanium</td></tr></table>`;

const card = (name: string, price: string, href: string) =>
  `<li><a href="${href}"><img src="/i/${name.length}.jpg" alt=""><span>${name}</span></a><span>${price}</span></li>`;

const CARDS = [
  card('Titanium mug 450 ml', '€24.00', '/p/mug'),
  card('Folding spork, long handle', '€9.50', '/p/spork'),
  card('Canister stove, piezo ignition', '€45.00', '/p/stove'),
  card('Windscreen for canister stoves', '€15.00', '/p/windscreen'),
];

describe('removeOtherProducts', () => {
  it("removes a run of other products' cards, with its heading, and keeps the product", () => {
    const text = cleaned(`${PRODUCT}<h2>Customers also viewed</h2><ul class="carousel">${CARDS.join('')}</ul>`);
    expect(text).toContain('A titanium kettle');
    expect(text).toContain('Grade 2 titanium');
    expect(text).not.toContain('Folding spork');
    expect(text).not.toContain('Customers also viewed');
  });

  it("removes a carousel's heading written before its frame, not before the cards' row", () => {
    const text = cleaned(`${PRODUCT}<h2>You may also like</h2><div class="slider"><div class="track"><ul>${CARDS.join('')}</ul></div></div>`);
    expect(text).toContain('Grade 2 titanium');
    expect(text).not.toContain('Folding spork');
    expect(text).not.toContain('You may also like');
  });

  it("keeps cards that link to this product's own page (its sizes and colours)", () => {
    const variants = ['0.9 L', '1.2 L', '1.6 L'].map((size) => card(`Trail Kettle ${size}`, '€39.00', `/p/trail-kettle?size=${size}`));
    const text = cleaned(`${PRODUCT}<ul>${variants.join('')}</ul>`);
    expect(text).toContain('Trail Kettle 1.6 L');
  });

  it("keeps cards linking out of the site, and cards without prices", () => {
    const out = CARDS.map((c) => c.replace(/href="\//, 'href="https://other-shop.example.net/'));
    expect(cleaned(`${PRODUCT}<ul>${out.join('')}</ul>`)).toContain('Folding spork');
    const unpriced = CARDS.map((c) => c.replace(/€[\d.]+/, 'In stock'));
    expect(cleaned(`${PRODUCT}<ul>${unpriced.join('')}</ul>`)).toContain('Folding spork');
  });

  it('keeps a run of cards that is most of what was kept: then it is the content', () => {
    const many = [...CARDS, ...CARDS, ...CARDS].join('');
    expect(cleaned(`<h1>Camp kitchen</h1><ul>${many}</ul>`)).toContain('Folding spork');
  });
});

describe('removeOtherProducts after a cleanup took the cards\' links', () => {
  /** Marks the links, then removes every `<a>` with its text (as the cleanup takes a "to the product" line), then the cards. */
  function cleanedAfterLinksWent(content: string): string {
    const { document } = new JSDOM(`<body><div id="content">${content}</div></body>`, { url: 'https://shop.example.com/p/trail-kettle' }).window;
    const root = document.getElementById('content')!;
    const linked = new WeakSet<Element>();
    markLinksElsewhere(root, linked);
    for (const a of [...root.querySelectorAll('a')]) a.remove();
    removeOtherProducts(root, linked);
    return root.textContent!.replace(/\s+/g, ' ').trim();
  }
  const buttonCard = (name: string, price: string, href: string) =>
    `<div class="card"><div>${name}</div><p>${name}, in titanium, light and tough.</p><div>${price}</div><div><a href="${href}">to the product</a></div></div>`;
  const cards = (host = '') => [
    buttonCard('Titanium mug 450 ml', '€24.00', `${host}/p/mug`),
    buttonCard('Folding spork', '€9.50', `${host}/p/spork`),
    buttonCard('Canister stove', '€45.00', `${host}/p/stove`),
  ].join('');

  it('still tells the cards by the links they had', () => {
    const text = cleanedAfterLinksWent(`${PRODUCT}<div class="variations">${cards()}</div>`);
    expect(text).toContain('A titanium kettle');
    expect(text).not.toContain('Folding spork');
  });

  it("keeps cards that never linked to another of the site's pages: the product's own editions, or shops elsewhere", () => {
    const editions = cards().replace(/href="\/p\/\w+"/g, 'href="#buy"');
    expect(cleanedAfterLinksWent(`${PRODUCT}<div>${editions}</div>`)).toContain('Folding spork');
    expect(cleanedAfterLinksWent(`${PRODUCT}<div>${cards('https://other-shop.example.net')}</div>`)).toContain('Folding spork');
  });

  it("removes cards that are more than half the words kept, when the product's own text is short", () => {
    const short = '<h1>Trail Kettle 1.2 L</h1><p>€39.00</p><p>Titanium, 142 g, 1.2 litres, folding handle.</p>';
    const text = cleanedAfterLinksWent(`${short}<div>${cards()}</div>`);
    expect(text).toContain('folding handle');
    expect(text).not.toContain('Canister stove');
  });
});

describe('statesOneProduct', () => {
  const head = (html: string) => parseDocument(`<html><head>${html}</head><body><p>x</p></body></html>`, 'https://shop.example.com/p/1');
  const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

  it('reads one product from JSON-LD, even stated twice or with its variants', () => {
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"Product","name":"Trail Kettle"}'))))).toBe(true);
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"Product","name":"Trail Kettle"}') + ld('[{"@type":"Product","name":"Trail Kettle"}]'))))).toBe(true);
    expect(statesOneProduct(pageStatements(head(ld('{"@graph":[{"@type":"ProductGroup","name":"Kettle","hasVariant":[{"@type":"Product","name":"Kettle 1 L"},{"@type":"Product","name":"Kettle 2 L"}]}]}'))))).toBe(true);
    expect(statesOneProduct(pageStatements(parseDocument('<body><div itemscope itemtype="https://schema.org/Product">k</div></body>', 'https://shop.example.com/p/1')))).toBe(true);
  });

  it('does not read one product from a list of them, several products, or none', () => {
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"Product","name":"A"}') + ld('{"@type":"Product","name":"B"}'))))).toBe(false);
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"ItemList","itemListElement":[{"@type":"Product","name":"A"}]}'))))).toBe(false);
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"Product","name":"A"}') + '<meta property="og:type" content="product.group">')))).toBe(false);
    expect(statesOneProduct(pageStatements(head(ld('{"@type":"Article","name":"A"}') + ld('{not json'))))).toBe(false);
  });

  it('reads one product beside the shop\'s catalogue, which names another page, but not beside a list of this page', () => {
    const kettle = ld('{"@graph":[{"@type":"ProductGroup","name":"Kettle"}]}');
    const catalogue = (url: string) => ld(`{"@graph":[{"@type":"OfferCatalog","name":"Catalogue","url":"${url}","itemListElement":[]}]}`);
    expect(statesOneProduct(pageStatements(head(kettle + catalogue('https://shop.example.com/'))))).toBe(true);
    expect(statesOneProduct(pageStatements(head(kettle + catalogue('https://www.shop.example.com/p/1/?page=2'))))).toBe(false);
    expect(statesOneProduct(pageStatements(head(kettle + ld('{"@type":"ItemList","@id":"https://shop.example.com/p/1#list"}'))))).toBe(false);
    expect(statesOneProduct(pageStatements(head(kettle + ld('{"@type":"CollectionPage" "broken"'))))).toBe(false);
  });
});
