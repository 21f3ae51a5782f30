import { childElements } from '@folio/dom';
import { classWords } from './boilerplate.ts';
import { elementsWithAttribute, firstNamed, tagSet } from './elements.ts';
import { words } from './text-measure.ts';

/**
 * Customers' reviews on a page that offers a product: a run of reviews, each a block the markup calls a review
 * (`class="review"`, `customer-review`, schema.org Review microdata), with the section around it (its heading, the
 * stars' histogram, "Write a review", sorting and filters). A product page's reviews often hold more words than its
 * description, so Readability, counting words, keeps them and leaves the description out: the section goes from the
 * page before anything chooses (`reviewsToRemove` says on which pages).
 */
const MIN_REVIEWS = 2;
/** Words a review must hold to be one (a row of stars, a "review-count" label, hold none). */
const MIN_REVIEW_WORDS = 5;
/** Words of a class or id that name reviews; a section around them may be named for their ratings as well. */
const REVIEW_WORDS = new Set(['review', 'reviews']);
const SECTION_WORDS = new Set(['review', 'reviews', 'ratings']);
/** Testimonials are reviews the seller chose to show as part of what it says (a service's clients' words): they stay. */
const TESTIMONIAL_WORDS = new Set(['testimonial', 'testimonials']);
const H1 = tagSet('h1');
const HEADINGS = tagSet('h2', 'h3', 'h4');
/** Words of a class or id that name what the product is, which a section of reviews never holds. */
const DESCRIPTION_WORDS = new Set(['description', 'specifications', 'specs']);
/** Words such a block holds at least (the stars' "description", "4.7 out of 5", is not the product's). */
const MIN_DESCRIPTION_WORDS = 20;
/** Elements the section can never be: the page's frame and its main content. */
const FRAME = tagSet('body', 'html', 'main', 'article');
/** Runs of reviews on one page, at most (a product's reviews, its highlighted ones, a second page of them). */
const MAX_RUNS = 12;
/** Levels above the run at most where the section may start. */
const MAX_CLIMB = 8;
/** Words of the run's section besides the reviews themselves, at most, as a share of the reviews' words. */
const MAX_AROUND_SHARE = 1;

/**
 * Which runs of reviews a page loses: every run on a page that states it offers one product (`statesOneProduct`);
 * on a page that states nothing of what it is, only runs whose reviews carry a customer's marks (`customersMarks`),
 * as a shop's product page that states no product (Amazon's) shows them; none on a page that states it is an article
 * or a discussion, or whose title names reviews: a review site's reviews, an editor's reviews of products, a forum's
 * posts are its content.
 */
export type ReviewsToRemove = 'every' | 'marked' | null;

/** `article`: the page's `og:type` says article, as every page stating an article does. */
export function reviewsToRemove(page: { oneProduct: boolean; article: boolean; discussion: boolean; title: string }): ReviewsToRemove {
  if (page.oneProduct) return 'every';
  if (page.article || page.discussion || REVIEWS_TITLE.test(page.title)) return null;
  return 'marked';
}

const REVIEWS_TITLE = /\breviews?\b/i;

/** Whether a section of reviews was removed. */
export function removeCustomerReviews(root: Element, which: Exclude<ReviewsToRemove, null> = 'every'): boolean {
  const runs: Array<{ run: Element; reviews: Element[] }> = [];
  // Each parent is looked at once: thousands of review-named siblings must not each count all of them again.
  const seen = new Set<Element>();
  for (const element of elementsWithAttribute(root, ['class', 'id', 'itemtype', 'itemprop'])) {
    const parent = element.parentElement;
    if (!parent || seen.has(parent) || !isReview(element)) continue;
    seen.add(parent);
    const reviews = reviewsIn(parent);
    if (reviews.length >= MIN_REVIEWS && (which === 'every' || customersMarks(reviews))) runs.push({ run: parent, reviews });
  }
  // A page with more runs than a product's reviews make is not a product with its reviews; and each run's section is
  // measured against its ancestors' text, which thousands of runs must not each read.
  if (runs.length > MAX_RUNS) return false;
  let removed = false;
  for (const { run, reviews } of runs) {
    if (!root.contains(run)) continue; // inside a section removed already
    const section = sectionOf(run, reviews);
    if (!section) continue;
    const before = section.previousElementSibling;
    if (before && HEADINGS.has(before.localName) && /review|rating/i.test(before.textContent ?? '')) before.remove();
    section.remove();
    removed = true;
  }
  return removed;
}

function isReview(element: Element): boolean {
  // A link is a summary that leads to reviews ("Recent reviews: Very positive"), never one itself.
  if (element.localName === 'a') return false;
  const itemtype = element.getAttribute('itemtype');
  if (itemtype && /schema\.org\/Review$/i.test(itemtype.trim())) return true;
  if (element.getAttribute('itemprop')?.trim().toLowerCase() === 'review') return true;
  return classWords(element).some((word) => REVIEW_WORDS.has(word)) && !isTestimonials(element);
}

const isTestimonials = (element: Element) => classWords(element).some((word) => TESTIMONIAL_WORDS.has(word));

/**
 * What a shop prints on its customers' reviews and an editor's review of a product does not carry: a vote on how
 * helpful it was, a verified purchase, or a rating beside the reviewer's name. An editor's review has a score but no
 * reviewer in it (the article's author is named once, above it). No word boundary after the words: a review's text
 * runs its parts together ("found this helpfulAna").
 */
const CUSTOMER_MARKS = /\bhelpful|\bverified (?:purchase|buyer|owner)/i;
const RATING_WORDS = new Set(['rating', 'stars', 'star']);
const REVIEWER_WORDS = new Set(['author', 'reviewer', 'user', 'customer']);

/** Whether most reviews of a run carry a customer's marks. */
function customersMarks(reviews: Element[]): boolean {
  const marked = reviews.filter((review) => CUSTOMER_MARKS.test(review.textContent ?? '') ||
    (holds(review, 'reviewRating', RATING_WORDS) && holds(review, 'author', REVIEWER_WORDS)));
  return marked.length * 2 >= reviews.length;
}

/** Whether an element under `review` is its `itemprop` or has a class word of `words`. */
function holds(review: Element, itemprop: string, words: ReadonlySet<string>): boolean {
  return elementsWithAttribute(review, ['class', 'itemprop']).some((element) =>
    element.getAttribute('itemprop')?.trim() === itemprop || classWords(element).some((word) => words.has(word)));
}

/**
 * The children of `parent` that are reviews with something to say, alike in their markup (one review's title and
 * text, each named for the review, are not two reviews): the largest group of the same tag and
 * itemtype or class names that say review.
 */
function reviewsIn(parent: Element): Element[] {
  const groups = new Map<string, Element[]>();
  for (const child of childElements(parent)) {
    if (!isReview(child)) continue;
    // The class names that say review: the rest varies between like items (`even`, `odd`, `thread-alt`, an id).
    const names = (child.getAttribute('class') ?? '').split(/\s+/).filter((name) => /review/i.test(name)).sort().join(' ');
    const key = `${child.localName} ${child.getAttribute('itemtype') ?? names}`;
    groups.get(key)?.push(child) ?? groups.set(key, [child]);
  }
  // Words are counted only in a group that could be a run: a review-named element alone may hold the whole page.
  let largest: Element[] = [];
  for (const group of groups.values()) {
    if (group.length < MIN_REVIEWS || group.length <= largest.length) continue;
    const said = group.filter((review) => words(review) >= MIN_REVIEW_WORDS);
    if (said.length > largest.length) largest = said;
  }
  return largest;
}

/**
 * The section of a run of reviews: its outermost ancestor within reach that the markup names for reviews, holds no
 * more besides them than the reviews say and nothing the markup calls the description or specifications (a wrapper
 * of the description and the reviews is not theirs), and not the product's heading; the run's own parent when none
 * does.
 */
function sectionOf(run: Element, reviews: Element[]): Element | null {
  const reviewWords = reviews.reduce((sum, review) => sum + words(review), 0);
  const fits = (element: Element) =>
    !FRAME.has(element.localName) && firstNamed(element, H1) === null &&
    words(element) - reviewWords <= reviewWords * MAX_AROUND_SHARE && !holdsDescription(element, run);
  if (!fits(run) || isTestimonials(run)) return null;
  let section = run;
  let at: Element | null = run.parentElement;
  for (let level = 0; at && level < MAX_CLIMB && fits(at); level++, at = at.parentElement) {
    if (isTestimonials(at)) return null;
    if (classWords(at).some((word) => SECTION_WORDS.has(word))) section = at;
  }
  return section;
}

/**
 * Whether `element` holds, besides the run, a block of some words the markup calls a description or specifications
 * (inside the run it is a review's own text: WooCommerce's reviews are each a `description`).
 */
function holdsDescription(element: Element, run: Element): boolean {
  return elementsWithAttribute(element, ['class', 'id']).some((inner) => {
    if (run.contains(inner)) return false;
    const named = classWords(inner);
    return named.some((word) => DESCRIPTION_WORDS.has(word)) && !named.some((word) => REVIEW_WORDS.has(word)) &&
      words(inner) >= MIN_DESCRIPTION_WORDS;
  });
}
