import { isDateline } from './datelines.ts';
import { normalisedText, words } from './text-measure.ts';
import { closestNamed, elementsNamed, firstNamed, tagSet } from './elements.ts';

/**
 * Lines that are the page talking about itself rather than the article: ad slots and loaders, the labels of toggles
 * ("Show more", "Click to expand…"), a post's counters ("6 Likes", "2 replies"; not "9 Comments", a link to them),
 * notices that a widget needs JavaScript, "Posted …/Updated …" datelines, filing and reading-time notes, cookie and
 * copyright notices, a widget's empty state, controls left as text (`CONTROLS`), and the promotional sign-off (follow
 * us, subscribe, get the app) that closes many articles.
 */
const NOTICE = /^(?:advert(?:isement)?s?|ads?|sponsored(?: content)?|continue reading(?: below)?|skip to (?:main )?content|loading(?: content)?|loading(?: [\w-]+){0,4}\s*(?:\.\.\.|…)|(?:this (?:[\w-]+ ){0,2}(?:requires|needs) javascript|(?:please )?(?:enable|turn on) javascript(?: to [\w ]{1,40})?|javascript (?:is )?(?:required|disabled))\.?|comments?|share(?: this)?(?: article| story)?|print|e-?mail|tweet|breaking news|read more|close|(?:(?:show|see|view) (?:more|less)|read less|click to (?:expand|shrink)|(?:expand|collapse)(?: all)?)\s*(?:[+–-]|\.\.\.|…)?|caption|image \d+ of \d+|\d[\d,.]*\s?[km]? (?:likes?|repl(?:y|ies)|views?|votes?|upvotes?|reactions?)|reklame|anzeige|werbung|publicité|publicidade|publicidad|pubblicità|iklan)$/i;

/**
 * Controls a page's scripts work that reach the content as lines of text. Each was counted on WCXB's tuning folds, in
 * Folio's output against the truths, and is here only where the truths almost never keep it (docs/benchmarks.md,
 * the thirty-seventh round): a bare count ("514 results"), a stock state and a "Best seller" badge are kept by a
 * third of them, and stay.
 */
const CONTROLS = new RegExp(`^(?:${[
  // A grid's sort control and its count of what it shows: "Sort: Best Match", "Sort & Filter", "Showing 24 of 514 results".
  String.raw`sort(?:ed)?(?: by)?(?:\s*:\s*[^:]{1,30})?`,
  String.raw`(?:sort|filter)s? (?:and|&) (?:sort|filter)s?`,
  String.raw`(?:showing|displaying|viewing) (?:\d[\d,.]*\s*[-–]\s*)?\d[\d,.]* (?:of|out of) \d[\d,.]*(?: (?:results|products|items))?`,
  String.raw`loaded \d[\d,.]* results`,
  // A forum member's rank and counts under the name ("Senior Member", "Posts: 4,958"; not karma, which a truth kept),
  // a thread's counts and its last reply ("Replies: 46", "Views 26.2k", "Last Post: 12-17-2005"; "Replies" and "Views"
  // alone head a truth's table now and then, and stay), and the heading of similar threads left over nothing once the
  // related-links rule took the list.
  String.raw`(?:(?:new|senior|junior|well-known|active|registered|established|banned) )?member`,
  String.raw`(?:posts|messages|reaction score|points|solutions|likes received|threads|reputation|replies|views)\s*:?\s*[\d,.]+k?`,
  String.raw`last (?:reply|post)(?:\s*:?\s+.{1,40})?|top posters in this topic`,
  String.raw`(?:similar|related) (?:threads|questions|discussions|topics)|explore related questions`,
  // A shop's buttons: "Add to Cart", "Quick view", "Recently viewed", "Ask a question".
  String.raw`add to (?:cart|bag|basket|wish ?list)|quick (?:view|shop|add)|recently viewed|ask (?:a )?question`,
].join('|')})$`, 'i');

/**
 * What a widget says when it has nothing to show ("No posts", "No Reviews Yet", "Be the first to comment"): the
 * empty state of a list of other posts, of reviews or of comments that the page's scripts fill in.
 */
const EMPTY_STATE = /^(?:no (?:posts|comments|results|items|reviews|products|articles|entries)(?: found| yet)?(?: here)?|nothing (?:found|here)|there are no (?:comments|reviews)(?: yet)?|be the first to (?:comment|review)(?: (?:this|on this) (?:item|product|article|post|story))?)[.!]?$/i;

/** Short notes about the article or the site, recognised by how they begin or what they are about. */
const NOTES: [RegExp, number][] = [
  [/^(?:filed under|posted in|categories|tags)\s*[:|]/i, 40],
  // (no `i` flag: with it, \p{Lu} would match lower case too)
  [/^(?:[Aa]dditional )?(?:[Rr]eporting|[Ee]diting|[Ww]riting) by\s+\p{Lu}/u, 15],
  [/^(?:copyright|©|\(c\))\s*(?:@\s*)?(?:©\s*)?(?:19|20)\d{2}\b|\ball rights reserved\b/i, 40],
  [/(?:reading time|tempo de leitura|lesezeit|temps de lecture|tiempo de lectura)\s*[:：]|^\d+\s*min(?:ute)?s? read$/i, 10],
  [/\b(?:we|this (?:web)?site) uses? cookies\b/i, 60],
  // A thread's or a comment section's prompt to readers who are not signed in.
  [/^(?:you (?:must|need to) (?:be (?:a member|logged in|signed in)|log ?in|sign ?in|register)|(?:please )?(?:log ?in|sign ?in|register|create an account)(?: or (?:sign ?in|register|sign ?up|log ?in))? to (?:comment|reply|post|answer|vote))\b/i, 15],
];

/** "Posted/Updated/Published …" followed by a date. */
const STAMP_PREFIX = /^(?:posted|updated|published|last updated|first published|modified|created)(?:\s+on)?\s*[:：]?\s/i;

const SIGN_OFF = /\b(?:follow (?:us|him|her|them|me)\b|subscribe|sign up|newsletters?\b|join (?:us|our)\b|download (?:the|our) app|get the .{0,30}app\b|click here)/i;
const MAX_SIGN_OFF_WORDS = 40;
const SIGN_OFF_SPAN = 4;

const LINE_BLOCKS = tagSet('p', 'div', 'span', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'strong', 'em', 'b');
const MEDIA = tagSet('img', 'picture', 'video', 'iframe');
const P = tagSet('p');
const INLINE = tagSet('span', 'strong', 'em', 'b');
/** Code says "print", "close" and "email" as words of its own: a highlighter's span around one is not a button. */
const CODE = tagSet('pre', 'code');

export function removeNotices(root: Element): void {
  for (const block of elementsNamed(root, LINE_BLOCKS)) {
    if (!root.contains(block)) continue;
    const text = normalisedText(block);
    if (text === '' || text.length > 300) continue;
    const n = words(text);
    const isStamp = STAMP_PREFIX.test(text) && isDateline(text, n);
    if (NOTICE.test(text) || CONTROLS.test(text) || (EMPTY_STATE.test(text) && standsAlone(block, text)) || isStamp || NOTES.some(([pattern, max]) => n <= max && pattern.test(text))) {
      if (!firstNamed(block, MEDIA) && !closestNamed(block, CODE)) block.remove();
    }
  }
  removeSignOff(root);
}

/** Whether a block is a line of its own: not words emphasised inside a sentence ("there were <b>no results</b> for…"). */
function standsAlone(block: Element, text: string): boolean {
  return !INLINE.has(block.localName) || (block.parentElement !== null && normalisedText(block.parentElement) === text);
}

/** The last few paragraphs, from the end backwards, while they are short promotional lines. */
function removeSignOff(root: Element): void {
  const paragraphs = elementsNamed(root, P);
  for (let i = paragraphs.length - 1, seen = 0; i >= 0 && seen < SIGN_OFF_SPAN; i--, seen++) {
    const p = paragraphs[i]!;
    const text = normalisedText(p);
    if (text === '') continue;
    if (words(text) > MAX_SIGN_OFF_WORDS || !SIGN_OFF.test(text)) break;
    p.remove();
  }
}
