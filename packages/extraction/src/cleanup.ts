import { removeArticleHead } from './article-head.ts';
import { removeFurniture } from './boilerplate.ts';
import { removeHiddenByUtilities } from './hidden-utilities.ts';
import { markCaptions } from './captions.ts';
import { removeFiller } from './filler.ts';
import { removeNotices } from './notices.ts';
import { removeTablesOfContents } from './contents-lists.ts';
import { removeRelatedLinks } from './related-links.ts';
import { removeRepeatedQuotes } from './repeated-quotes.ts';
import { removeScrambledLabels } from './scrambled-labels.ts';
import { removeAnnouncements, removeScreenReaderText } from './screen-reader-text.ts';
import { removeSpacers } from './spacers.ts';
import { elementsWithAttribute } from './elements.ts';
import { markLinksElsewhere } from './other-products.ts';

/** What the cleanup is told of the page and of the content it cleans. */
export interface Cleaning {
  /** The headline as Readability found it and as printed: the content's head loses a line that repeats one. */
  titles: readonly string[];
  /** The page's `og:type` says article (`removeFurniture`: its headers are the article's head). */
  articlePage: boolean;
  /** The content is a run of entries (`repeated-blocks.ts`), kept whole with its own element (`regionContent`). */
  entries?: boolean;
  /** The page's run of entries inside the content (a grid in the page's main region): its entries' linked titles stay. */
  run?: Element;
  /** On a page that offers one product: where the elements that held a link to another page are noted (`markLinksElsewhere`). */
  linkedElsewhere?: WeakSet<Element>;
}

/**
 * What Readability keeps that is not the article, removed from the article it chose (never from the page before,
 * so its choice is not shifted): what a CSS framework's utility class hides at every width, furniture inside the
 * container, lists and lines of links to the site's other stories, notices, a table of contents with its label,
 * quotes of what the document already said, filler (a label repeated a hundred times, a block of keywords),
 * what a screen reader alone is told of a control or of text shown beside it, and the short announcements of its live
 * regions ("loaded 338 results", "Added to Cart"), labels scrambled with hidden noise, the head's repeated headline,
 * byline and date, and paragraphs that are only spacing.
 * Captions are marked so that every output can tell them from the body. Classes served these rules and go last.
 */
export function cleanArticle(content: Element, page: Cleaning): void {
  if (page.linkedElsewhere) markLinksElsewhere(content, page.linkedElsewhere);
  markCaptions(content);
  removeHiddenByUtilities(content);
  removeFurniture(content, page.articlePage);
  // A run of entries (repeated-blocks.ts) is often a list of links to the site's own pages: that list is the content,
  // and so are the titles of the entries of a run inside the content.
  if (!page.entries) removeRelatedLinks(content, page.run);
  removeNotices(content);
  removeFiller(content);
  removeTablesOfContents(content);
  removeRepeatedQuotes(content);
  removeScreenReaderText(content);
  removeAnnouncements(content);
  removeScrambledLabels(content);
  removeArticleHead(content, page.titles);
  removeSpacers(content);
  for (const element of elementsWithAttribute(content, ['class'])) element.removeAttribute('class');
}
