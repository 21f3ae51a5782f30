import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractArticle } from './article.ts';
import { removeCustomerReviews, reviewsToRemove } from './customer-reviews.ts';

const URL_ = 'https://shop.example.com/p/trail-kettle';

const DESCRIPTION = `<h1>Trail Kettle 1.2 L</h1><p>€39.00</p>
  <div class="product-description"><p>A titanium kettle that nests a gas canister and a small stove, with a folding
  handle and a lid that doubles as a cup. Light enough for long trips and tough enough for daily use at camp, it boils a
  litre in four minutes on a small burner.</p>
  <ul><li>Weight: 142 g</li><li>Material: grade 2 titanium</li><li>Capacity: 1.2 litres</li></ul></div>`;

/** A customer's review: longer than the description, as on most product pages with a few of them. */
const review = (name: string, i: number) => `<div class="review"><div class="review-stars">${5 - (i % 2)} out of 5</div>
  <h3 class="review-title">Great on the trail, ${name} says</h3><p class="review-text">I took this kettle on a week in the
  hills and it boiled water for two every morning without complaint. The handle folds flat, the lid fits snugly, and it
  packs around my canister with room for a lighter. After ${i + 2} trips the bottom is a little blue but nothing has bent
  or loosened. Would buy again and have recommended it to friends who camp.</p><span class="review-author">${name}</span></div>`;

const REVIEWS = `<section class="product-reviews"><div class="reviews-summary">4.6 average from 212 reviews. Write a review</div>
  <div class="reviews-list">${['Ana', 'Bo', 'Cy', 'Dee', 'Eli'].map(review).join('')}</div></section>`;

const productLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Kettle 1.2 L"}</script>`;

function productPage(body: string, head = productLd): string {
  return `<html><head><title>Trail Kettle 1.2 L</title>${head}</head><body><header><nav><a href="/">Shop</a></nav></header>
    <main>${body}</main><footer>© Shop</footer></body></html>`;
}

function textOf(html: string): string {
  return extractArticle(html, { url: URL_ }).text;
}

describe('removeCustomerReviews (through extractArticle)', () => {
  it("keeps the product's description, not its customers' reviews that outweigh it", () => {
    const text = textOf(productPage(`<div class="product">${DESCRIPTION}</div>${REVIEWS}`));
    expect(text).toContain('A titanium kettle');
    expect(text).toContain('grade 2 titanium');
    expect(text).not.toContain('boiled water for two');
    expect(text).not.toContain('Write a review');
  });

  it("keeps a shop's description on a page that states nothing, when its reviews carry customers' marks", () => {
    const text = textOf(productPage(`<div class="product">${DESCRIPTION}</div>${REVIEWS}`, ''));
    expect(text).toContain('A titanium kettle');
    expect(text).not.toContain('boiled water for two');
  });

  it('keeps the reviews on a page that says they are its content: a review site, an article, a discussion', () => {
    const page = (head: string, title = 'Trail Kettle 1.2 L') =>
      productPage(`<div class="product">${DESCRIPTION}</div>${REVIEWS}`, head).replace('<title>Trail Kettle 1.2 L</title>', `<title>${title}</title>`);
    for (const html of [
      page('', 'Trail Kettle 1.2 L: 212 customer reviews'),
      page('<meta property="og:type" content="article">'),
      page(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Kettles"}</script>`),
    ]) {
      expect(textOf(html)).toContain('boiled water for two');
    }
  });
});

describe('reviewsToRemove', () => {
  const page = { oneProduct: false, article: false, discussion: false, title: 'Trail Kettle 1.2 L' };

  it('takes every run from a page of one product, and only runs marked as customers\' from a page that states nothing', () => {
    expect(reviewsToRemove({ ...page, oneProduct: true })).toBe('every');
    expect(reviewsToRemove({ ...page, oneProduct: true, title: 'Trail Kettle reviews' })).toBe('every');
    expect(reviewsToRemove(page)).toBe('marked');
  });

  it('takes none from an article, a discussion, or a page whose title names reviews', () => {
    expect(reviewsToRemove({ ...page, article: true })).toBeNull();
    expect(reviewsToRemove({ ...page, discussion: true })).toBeNull();
    expect(reviewsToRemove({ ...page, title: 'Trail Kettle: 212 Reviews' })).toBeNull();
    expect(reviewsToRemove({ ...page, title: 'Kettle review: the Trail 1.2 L' })).toBeNull();
  });
});

describe('removeCustomerReviews', () => {
  const root = (body: string) => new JSDOM(`<body>${body}</body>`, { url: URL_ }).window.document.body;

  it('removes the section around the run (summary, heading) and leaves the rest', () => {
    const body = root(`<div>${DESCRIPTION}</div><h2>Customer reviews</h2>${REVIEWS}`);
    expect(removeCustomerReviews(body)).toBe(true);
    expect(body.textContent).toContain('A titanium kettle');
    expect(body.textContent).not.toContain('Customer reviews');
    expect(body.textContent).not.toContain('212 reviews');
  });

  it('finds reviews by their schema.org microdata', () => {
    const items = ['Ana', 'Bo', 'Cy'].map((name, i) => review(name, i).replace('class="review"', 'itemprop="review" itemscope itemtype="https://schema.org/Review"'));
    const body = root(`<div>${DESCRIPTION}</div><div>${items.join('')}</div>`);
    expect(removeCustomerReviews(body)).toBe(true);
    expect(body.textContent).not.toContain('boiled water for two');
  });

  it("keeps a seller's testimonials, a lone review, summary links, a listing's cards, and a wrapper that also holds the description", () => {
    const testimonials = ['Ana', 'Bo', 'Cy'].map(review).join('');
    for (const body of [
      root(`<div>${DESCRIPTION}</div><div class="testimonials">${testimonials}</div>`),
      root(`<div>${DESCRIPTION}</div><div class="reviews">${review('Ana', 0)}</div>`),
      root(`<div>${DESCRIPTION}</div><div class="reviews"><a class="review" href="#r">Recent reviews: very positive, 88% of 822 in the last 30 days</a><a class="review" href="#a">All reviews: very positive, 90% of 12,000</a></div>`),
    ]) {
      expect(removeCustomerReviews(body)).toBe(false);
    }
    // A listing whose every card quotes two reviews is not one product's reviews.
    const cards = Array.from({ length: 20 }, (_, i) => `<div class="card">${review('Ana', i)}${review('Bo', i)}</div>`).join('');
    expect(removeCustomerReviews(root(`<div>${cards}</div>`))).toBe(false);
    const tabs = root(`<h1>Trail Kettle</h1><div class="product-tabs reviews-enabled"><div class="tab-description"><p>A titanium kettle for long trips, with a folding handle and a lid that doubles as a cup, light enough to carry anywhere and tough enough for daily use.</p></div><div>${['Ana', 'Bo', 'Cy'].map(review).join('')}</div></div>`);
    removeCustomerReviews(tabs);
    expect(tabs.textContent).toContain('A titanium kettle');
    const together = root(`<div class="reviews-and-details">${DESCRIPTION}<div>${['Ana', 'Bo', 'Cy'].map(review).join('')}</div></div>`);
    removeCustomerReviews(together);
    expect(together.textContent).toContain('A titanium kettle');
  });
  describe("with 'marked': only reviews that carry a customer's marks", () => {
    /** An editor's review of one product in a round-up: a score, no reviewer. */
    const editorial = (name: string) => `<div class="product-review"><h3>${name}: best for small kitchens</h3>
      <div class="score">Overall score 4.5/5</div><p>We tested the ${name} for three weeks. It boils a litre in four
      minutes, its handle stays cool and its lid seals well, though its spout drips when the kettle is full.</p></div>`;

    it("removes reviews with a helpful vote, a verified purchase, or a rating beside the reviewer's name", () => {
      const voted = (name: string, i: number) => review(name, i).replace('<span class="review-author">', '<span>12 people found this helpful</span><span>');
      const verified = (name: string, i: number) => review(name, i).replace('review-stars', 'review-head').replace('<span class="review-author">', '<span>Verified Purchase</span><span>');
      for (const make of [voted, verified, review]) {
        const body = root(`<div>${DESCRIPTION}</div><div class="reviews-list">${['Ana', 'Bo', 'Cy'].map(make).join('')}</div>`);
        expect(removeCustomerReviews(body, 'marked')).toBe(true);
        expect(body.textContent).not.toContain('boiled water for two');
      }
    });

    it("keeps an editor's reviews of products (a score, no reviewer) and reviews with a rating but no reviewer", () => {
      const editorials = root(`<h1>The best travel kettles</h1><div class="entry-content">${['Trail', 'Summit', 'Ridge'].map(editorial).join('')}</div>`);
      expect(removeCustomerReviews(editorials, 'marked')).toBe(false);
      const unnamed = ['Ana', 'Bo', 'Cy'].map((name, i) => review(name, i).replace('class="review-author"', 'class="review-date"'));
      const body = root(`<div>${DESCRIPTION}</div><div class="reviews-list">${unnamed.join('')}</div>`);
      expect(removeCustomerReviews(body, 'marked')).toBe(false);
      expect(body.textContent).toContain('boiled water for two');
      // The same editor's reviews go from a page that states it offers one product.
      expect(removeCustomerReviews(editorials)).toBe(true);
    });
  });
});
