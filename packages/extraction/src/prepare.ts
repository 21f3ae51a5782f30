import { classWords, isArticleFurniture, PROTECTED } from './boilerplate.ts';
import { isCaption, toFigcaption } from './captions.ts';
import { textLength } from './text-measure.ts';
import { elementsWithAttribute } from './elements.ts';
import { setHeadingNamesAside } from './heading-names.ts';
import { setSectionAnchorsAside } from './section-anchors.ts';

/**
 * One pass over the page before Readability runs, for what Readability's rewriting would make unrecognisable:
 * it replaces a `<div class="caption">` by the `<p>` inside it, and drops classes, so captions are turned into
 * `<figcaption>` and the article's small furniture (bylines, dates, credits) is removed here, while their classes
 * still say what they are. Larger furniture waits until Readability has chosen the article (cleanup.ts), so that
 * its choice is not shifted — but for modal dialogs, which are not the page at all.
 */
const MAX_FURNITURE_LENGTH = 400;

/** Class words of an embedded post (a tweet, an Instagram post) quoted in the article. */
const EMBEDDED_POST = new Set(['twitter', 'tweet', 'instagram', 'tiktok', 'fb', 'facebook', 'threads', 'bluesky', 'mastodon']);

/** Substrings of every caption and article-furniture word (a superset: classWords decides). */
const MAYBE_INTERESTING = /caption|credit|copyright|byl|timestamp|dateline|author|bio|print/i;

/** What the pass saw on its way and would otherwise be lost: the page's byline, a fallback for the author. */
export interface Prepared {
  byline: string | null;
}

const BYLINE_WORDS = new Set(['byline', 'byl', 'author']);

export function prepareForReadability(document: Document): Prepared {
  const prepared: Prepared = { byline: null };
  const body = document.body;
  if (!body) return prepared;
  const elements = elementsWithAttribute(body, ['class', 'id', 'aria-modal']);
  setSectionAnchorsAside(elements);
  setHeadingNamesAside(elements);
  removeModals(body, elements);
  for (const element of elements) {
    if (element.localName !== 'blockquote' || !body.contains(element)) continue; // inside a modal removed already
    if (classWords(element).some((word) => EMBEDDED_POST.has(word))) {
      keepEmbeddedPost(element, body);
    }
  }
  for (const element of elements) {
    // Most elements name nothing of interest: a cheap look at the raw names spares splitting them into words.
    const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (!MAYBE_INTERESTING.test(names)) continue;
    const words = classWords(element);
    if (words.length === 0 || !body.contains(element)) continue;
    if (isCaption(element, words)) toFigcaption(element);
    else if (isArticleFurniture(words) && !PROTECTED.has(element.localName) &&
      (element.textContent ?? '').length <= MAX_FURNITURE_LENGTH) {
      if (prepared.byline === null && words.some((word) => BYLINE_WORDS.has(word))) {
        const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text && text.length <= 120) prepared.byline = text;
      }
      element.remove();
    }
  }
  return prepared;
}

/**
 * A modal dialog (`aria-modal="true"`: a cookie-consent panel, a sign-in or newsletter overlay) sits above the page
 * and is not its content; its many words, left in, win Readability's choice on a page of short texts (a category's
 * headlines, a product's specifications) and outweigh the furniture rules' guard afterwards. A consent panel is such
 * an overlay whether or not it says so to assistive technology: one named for it (class or id words `consent`,
 * `gdpr`) goes the same way, since Readability may choose inside it, where the furniture rules, which read the
 * content chosen, never see the name. A modal holding most of the page's text is the page shown in an overlay (a post
 * opened from a feed): it stays.
 */
function removeModals(body: Element, elements: Element[]): void {
  let total: number | null = null;
  for (const element of elements) {
    if (!isModal(element) || !body.contains(element)) continue;
    total ??= textLength(body);
    if (textLength(element) <= total * MAX_MODAL_SHARE) element.remove();
  }
}

const CONSENT_WORDS = new Set(['consent', 'gdpr']);
/** The raw names that may hold a consent word: most elements are spared splitting their names into words. */
const MAYBE_CONSENT = /consent|gdpr/i;

function isModal(element: Element): boolean {
  if (element.getAttribute('aria-modal')?.trim().toLowerCase() === 'true') return true;
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return MAYBE_CONSENT.test(names) && classWords(element).some((word) => CONSENT_WORDS.has(word));
}

const MAX_MODAL_SHARE = 0.5;

/**
 * A post the article quotes is part of it, but its wrapper is usually called something like `social-embed`, which
 * reads as a share bar to Readability and to the furniture rules, and Readability's conditional cleaning drops a
 * `<div>` with that much link text. The wrappers that hold nothing but the post are unwrapped, and the post itself
 * loses the class that names the network.
 */
function keepEmbeddedPost(post: Element, body: Element): void {
  const own = textLength(post);
  let wrapper: Element | null = post.parentElement;
  while (wrapper && wrapper !== body && !PROTECTED.has(wrapper.localName) && textLength(wrapper) <= own + 40) {
    const outer: Element | null = wrapper.parentElement;
    wrapper.replaceWith(...Array.from(wrapper.childNodes));
    wrapper = outer;
  }
  post.removeAttribute('class');
  post.removeAttribute('id');
}
