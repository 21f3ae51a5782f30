import { hostOf } from './host.ts';
import { cleanArticle, type Cleaning } from './cleanup.ts';
import { flattenCodeTokens } from './code-tokens.ts';
import { removeDuplicateBlocks } from './duplicate-blocks.ts';
import { elementsNamed, tagSet } from './elements.ts';
import { stashDataUrls } from './data-urls.ts';
import { documentParser } from './document.ts';
import { NoArticleError } from './errors.ts';
import { separateGluedWords } from './glued-words.ts';
import { detectDirection, detectLanguage, isRtlLanguage } from './language.ts';
import { resolveLazyImages } from './lazy-images.ts';
import { cleanByline, directionOf, isoDate, readMetadata } from './metadata.ts';
import {
  ARTICLE_KEPT_WORDS, type BodyPage, bodyIsBetter, bodyMayBeBetter, mainRegionOf, openGraphArticle, pageStatements,
  REGION_RATIO, regionContent, regionIsBetter, statesArticle, statesDiscussion, statesOneProduct, unwrapNoscriptContent,
} from './main-region.ts';
import { removeOtherProducts } from './other-products.ts';
import { removeTeasers } from './teasers.ts';
import { removeCustomerReviews, reviewsToRemove, type ReviewsToRemove } from './customer-reviews.ts';
import { mayHoldOffScreen, removeOffScreen } from './off-screen.ts';
import { prepareForReadability, type Prepared } from './prepare.ts';
import { FastReadability } from './readability.ts';
import { restoreNamesSetAside } from './names-set-aside.ts';
import { openCollapsedPanels } from './collapsed-panels.ts';
import { codeLinesAsText, mayHoldCodeLines } from '@folio/dom';
import { COMMENTS_KEPT_WORDS, entriesRatio, removeCommentSections, repeatedBlocksOf } from './repeated-blocks.ts';
import { placeStreamedSegments, streamedSegmentPlaces } from './streamed-segments.ts';
import { nodeToText } from './text.ts';
import { lowerCaseWords, textLength } from './text-measure.ts';
import { headlineOf } from './title.ts';
import { countWords } from './words.ts';

export interface ExtractedArticle {
  /** '' when the page has none. */
  title: string;
  /** The page's canonical address, or the given one when it states none. */
  url: string | null;
  /** Hostname of the page. */
  site: string | null;
  author: string | null;
  /** ISO 8601, when the page states it. */
  date: string | null;
  excerpt: string | null;
  /** og:image or the lead image, absolute. */
  image: string | null;
  /** The page's own language, or the one its text is written in. */
  lang: string | null;
  dir: 'ltr' | 'rtl' | null;
  /** The article body: absolute addresses, lazy images resolved to real `src`s; sanitised when asked (`sanitize`). */
  contentHtml: string;
  /** The article body as readable plain text, words only (what `htmlToText(contentHtml)` gives). */
  text: string;
  wordCount: number;
}

export interface ExtractOptions {
  /** The page's address: resolves relative links and names the site. */
  url: string | null;
  /**
   * Sanitises the article's content in place once it is chosen and cleaned, before its text is measured (the
   * conversion engine passes article-html's `sanitizeContent`). `restore` turns a placeholder for a long `data:`
   * address back into the address, so that it is judged as itself. The content is parsed in the thread's window
   * (@folio/dom), where a sanitiser bound to that window can work on it without parsing it again.
   */
  sanitize?: (content: Element, restore: (value: string) => string) => void;
}

/**
 * The article of a web page, with what the page says about it. Readability over jsdom finds the article; the
 * steps around it keep what Readability would lose (lazy images, a page whose CSS jsdom cannot parse) and read
 * the metadata it does not (dates from `<time>`, lead images, language).
 */
export function extractArticle(html: string, options: ExtractOptions): ExtractedArticle {
  const stash = stashDataUrls(html);
  const parse = documentParser(stash.html, options.url);
  const document = parse();
  const metadata = readMetadata(document);
  // A page streamed by React holds its late content hidden at the end of the body, for a script to move into place
  // (streamed-segments.ts): read from the HTML, since scripts are cut before parsing, and done before anything looks.
  const segmentPlaces = streamedSegmentPlaces(stash.html);
  // What the page states about itself (an article, a discussion, one product) is read before anything is removed;
  // the page's main region (main-region.ts) and its run of like blocks (repeated-blocks.ts), and what they hold,
  // before Readability rewrites the document.
  const stated = pageStatements(document);
  const product = statesOneProduct(stated);
  const openGraph = openGraphArticle(stated);
  const article = statesArticle(stated);
  const pageTitle = document.title;
  // A page stating an article (`statesArticle`) states it by its og:type too.
  const reviews = reviewsToRemove({ oneProduct: product, article: openGraph, discussion: statesDiscussion(stated), title: pageTitle });
  const prepared = readyForReadability(document, stash, segmentPlaces, reviews);
  const region = mainRegionOf(document);
  const entries = repeatedBlocksOf(document);

  // Readability's conditional cleaning takes what reads like an aside out of an article: a block of links, of images,
  // a teaser. A page made of a run of like blocks that does not say it is an article (a topic's list of stories, a
  // grid, a thread, a service's features) is made of such blocks, and loses the entries unlike the run (a featured
  // story with its picture above the list). Measured: WCXB's held-out folds +0.000 and +0.005, the article set
  // unchanged (docs/benchmarks.md).
  const reader = new FastReadability(document, { serializer: (node) => node as Element, keepClasses: true });
  const parsed = (entries && !article && !openGraph ? reader.keepingAsides() : reader).parse();
  const title = parsed?.title ?? pageTitle ?? '';
  const url = metadata.canonicalUrl ?? options.url;
  const headline = headlineOf(cleanTitle(title), cleanTitle(pageTitle ?? ''), metadata.headings, [metadata.siteName, hostOf(options.url) ?? hostOf(url)]);
  // The head of whatever is chosen loses a line that repeats the title, as Readability found it or as printed; the
  // page's og:type says what a header inside it is (boilerplate.ts).
  const page: Cleaning = { titles: [title, headline], articlePage: openGraph, ...(product && { linkedElsewhere: new WeakSet<Element>() }) };
  let content: Element | null = parsed?.content ?? null;
  let text = '';
  if (content) {
    cleanArticle(content, withRun(page, content, entries?.element));
    text = nodeToText(content);
  }
  // The region can only be better when it holds REGION_RATIO times the text Readability kept, before its cleanup:
  // most articles end here, and the page is parsed again (Readability has rewritten this copy) only for the others.
  const chosenLength = content ? textLength(content) : 0;
  if (region && region.length >= chosenLength * REGION_RATIO && !(article && countWords(text) >= ARTICLE_KEPT_WORDS)) {
    const fresh = freshDocument(parse, stash, segmentPlaces, reviews);
    const again = mainRegionOf(fresh);
    if (again) {
      const regionPage = withRun(page, again.element, repeatedBlocksOf(fresh)?.element);
      const candidate = regionContent(again.element, regionPage);
      // Readers' comments under an article Readability kept are not the article (as a run of them never stands in);
      // a thread's replies, on a page that states it is a discussion, are its content.
      if (countWords(text) >= COMMENTS_KEPT_WORDS && !statesDiscussion(stated)) removeCommentSections(candidate, opening(text));
      cleanArticle(candidate, regionPage);
      const candidateText = nodeToText(candidate);
      if (regionIsBetter(text, candidateText)) {
        content = candidate;
        text = candidateText;
      }
    }
  }
  // A page of entries — a thread, a grid, a list (repeated-blocks.ts) — whose run of like blocks holds several times
  // what was kept: the run, parsed again since Readability rewrote this copy, once cleaned must still hold as much.
  const ratio = entries ? entriesRatio(entries, {
    length: content ? textLength(content) : 0, words: countWords(text), statedArticle: article, openGraphArticle: openGraph,
  }) : null;
  const again = ratio === null ? null : repeatedBlocksOf(freshDocument(parse, stash, segmentPlaces, reviews));
  if (ratio !== null && again) {
    const entriesPage: Cleaning = { ...page, entries: true };
    const candidate = regionContent(again.element, entriesPage);
    cleanArticle(candidate, entriesPage);
    const candidateText = nodeToText(candidate);
    if (countWords(candidateText) >= countWords(text) * ratio) {
      content = candidate;
      text = candidateText;
    }
  }
  const keptWords = content ? countWords(text) : 0;
  const bodyStated: BodyPage = { oneProduct: product, articlePage: openGraph };
  if (bodyMayBeBetter(keptWords, bodyStated)) {
    // Little or nothing kept: the page's body, without its frame (navigation, header, footer, hidden and interactive
    // elements), stands in when nothing was kept or when it holds several times what was (`bodyIsBetter`; not for a
    // product's short description, nor for a short post on a page that says it is an article). Only a page where
    // nothing is left is refused.
    const fresh = freshDocument(parse, stash, segmentPlaces, reviews);
    const body = fresh.body;
    if (body) {
      const bodyPage = withRun(page, body, repeatedBlocksOf(fresh)?.element);
      const candidate = regionContent(body, bodyPage);
      cleanArticle(candidate, bodyPage);
      const candidateText = nodeToText(candidate);
      if (!content || bodyIsBetter(keptWords, countWords(candidateText), bodyStated)) {
        content = candidate;
        text = candidateText;
      }
    }
  }
  if (!content) throw new NoArticleError();
  restoreNamesSetAside(content);
  // The cards of other products a product page offers, and the teasers of other stories under an article, go from
  // whatever stood in for its content; words its markup runs together are set apart (once the choice is made: a space
  // more must not tip it).
  const removedProducts = product && removeOtherProducts(content, page.linkedElsewhere);
  const removedTeasers = openGraph && removeTeasers(content);
  // What the content prints twice goes once the choice is made (the copies must not tip it), from a run of entries as
  // from anything else: its cards are alike, not printed twice (a site builder prints each for every screen width).
  const deduplicated = removeDuplicateBlocks(content);
  if (separateGluedWords(content) || removedProducts || removedTeasers || deduplicated) text = nodeToText(content);
  if (options.sanitize) {
    options.sanitize(content, stash.restoreText);
    text = nodeToText(content);
  }
  const wordCount = countWords(text);
  // A text without other words keeps its captions (`nodeToText`); pictures without any (a comic) are a gallery still.
  if (wordCount === 0 && !isGallery(content)) throw new NoArticleError();

  const lang = metadata.lang ?? detectLanguage(text);
  const statedDir = metadata.dir ?? directionOf(parsed?.dir);
  return {
    title: headline,
    url,
    // The host of `url`, the canonical address when the page states one: the two are printed side by side and must
    // name the same place (the address fetched may be a mirror, a redirect's end or a local copy).
    site: hostOf(url) ?? hostOf(options.url),
    author: metadata.author ?? byline(parsed?.byline) ?? byline(prepared.byline),
    date: metadata.date ?? (parsed?.publishedTime ? isoDate(parsed.publishedTime) : null),
    excerpt: parsed?.excerpt?.replace(/\s+/g, ' ').trim() || null,
    image: stash.restoreText(metadata.image ?? firstImage(content) ?? '') || null,
    lang,
    dir: statedDir ?? detectDirection(text, metadata.lang) ?? (lang && isRtlLanguage(lang) ? 'rtl' : null),
    contentHtml: stash.restoreHtml(content.innerHTML),
    text,
    wordCount,
  };
}

/**
 * The first words of a text's first line (one block of the page, so that they read the same in its elements' text,
 * bullets and punctuation aside), lower-cased and joined by spaces: enough to find where the text sits in a page.
 */
function opening(text: string): string {
  const line = text.split('\n').find((l) => lowerCaseWords(l).length > 0) ?? '';
  return lowerCaseWords(line).slice(0, 8).join(' ');
}

/**
 * A parsed page made ready for Readability: streamed segments placed, lazy images resolved, customers' reviews removed
 * where `reviews` says, captions and bylines seen to.
 */
function readyForReadability(
  document: Document, stash: ReturnType<typeof stashDataUrls>, segmentPlaces: ReadonlyMap<string, string> | null, reviews: ReviewsToRemove,
): Prepared {
  placeStreamedSegments(document, segmentPlaces);
  resolveLazyImages(document, { isStashedData: stash.isPlaceholder });
  unwrapNoscriptContent(document);
  if (document.body) {
    // What the page places off the screen no reader sees (injected link spam, helper texts); Readability, which strips
    // the style that says so, would keep it.
    if (mayHoldOffScreen(stash.html)) removeOffScreen(document.body);
    openCollapsedPanels(document.body);
    // Before Readability turns a code block's <div> lines into paragraphs, and while the classes that say a line is
    // one are there: the page's stylesheet, which set them apart, is not read. Only where the page's tags say a
    // <pre> may hold such lines: most pages have none.
    if (mayHoldCodeLines(stash.html)) codeLinesAsText(document.body);
    // Once its lines are text, a code block's token spans are only its text (code-tokens.ts).
    flattenCodeTokens(document.body);
    // Customers' reviews of a product go before anything chooses (they outweigh its description), and while their
    // reviewers' names, which the pass below takes for bylines, still say what they are.
    if (reviews) removeCustomerReviews(document.body, reviews);
  }
  return prepareForReadability(document);
}

/**
 * The cleanup told of the page's run of entries (a grid, a list) when `container` holds it: the entries' linked
 * titles are the entries' names, not lines of links to other pages (`removeRelatedLinks`).
 */
function withRun(page: Cleaning, container: Element, run: Element | undefined): Cleaning {
  return run && container.contains(run) ? { ...page, run } : page;
}

/** The page parsed and prepared again as the first time, for a second look after Readability has rewritten the first. */
function freshDocument(
  parse: () => Document, stash: ReturnType<typeof stashDataUrls>, segmentPlaces: ReadonlyMap<string, string> | null, reviews: ReviewsToRemove,
): Document {
  const document = parse();
  readyForReadability(document, stash, segmentPlaces, reviews);
  return document;
}

/** Titles sometimes arrive entity-encoded twice ("win this&nbsp;"): the common leftovers are decoded. */
function cleanTitle(title: string): string {
  const named: Record<string, string> = {
    nbsp: ' ', amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’',
    ldquo: '“', rdquo: '”', hellip: '…',
  };
  return title
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (m, ref: string) => {
      if (ref[0] === '#') {
        const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return named[ref.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function byline(value: string | null | undefined): string | null {
  if (!value) return null;
  const cleaned = cleanByline(value);
  return cleaned && cleaned.length <= 120 ? cleaned : null;
}

const IMG = tagSet('img');

/**
 * Whether content without a word of text, captions included, is pictures worth a document: two or more different
 * images (a gallery, a comic). A lone image is no more than a page's logo or spinner, and a page of it is refused.
 */
function isGallery(content: Element): boolean {
  const sources = new Set<string>();
  for (const img of elementsNamed(content, IMG)) {
    const src = img.getAttribute('src');
    if (!src || !/^(?:https?:|data:)/i.test(src)) continue;
    sources.add(src);
    if (sources.size >= 2) return true;
  }
  return false;
}

function firstImage(content: Element): string | null {
  for (const img of elementsNamed(content, IMG)) {
    const src = img.getAttribute('src');
    if (src && /^(?:https?:|data:)/i.test(src)) return src;
  }
  return null;
}
