/**
 * A page's title often carries the site's name before or after the headline ("Headline | The Daily Bugle",
 * "Headline - dailybugle.com"). The article's title is the headline: a first or last segment, set off by a separator
 * with spaces around it, is dropped when it names the site — it is the page's stated site name, or its letters are
 * most of the host's (or hold the host's main label) — and is short. Nothing is matched against any particular site.
 */
const SEPARATOR = /\s+[|\-–—·•:»]{1,2}\s+/g;
const MAX_SITE_WORDS = 4;

export function withoutSiteName(title: string, siteNames: (string | null)[], headings: string[] = []): string {
  // A separator left dangling at either end ("Headline -") is the site name's place with the name missing.
  let result = title.replace(/\s+[|\-–—·•»]+$/, '').replace(/^[|\-–—·•»]+\s+/, '');
  const named = siteNamer(siteNames);
  if (!named) return result;
  // A segment that holds the page's own heading is the headline, though it starts with the brand the host is named
  // after ("Gymshark Arrival T-Shirt - Black", whose heading is "Arrival T-Shirt").
  const heads = ownHeadings(headings, siteNames, named).map(compact);
  const namesSite = (segment: string) => named(segment) && !heads.some((heading) => compact(segment).includes(heading));
  const parts = splitKeepingSeparators(result);
  if (parts.length < 3) return result;
  const last = parts[parts.length - 1]!;
  const first = parts[0]!;
  if (namesSite(last)) result = parts.slice(0, -2).join('');
  else if (namesSite(first)) result = parts.slice(2).join('');
  return words(result) > 0 ? result.trim() : title;
}

/**
 * The page's headings that are its own: not one that names the site itself, as a logo set in an `<h1>` does, or a
 * documentation site's header ("SQLAlchemy 2.0 Documentation" before the page's "ORM Quick Start").
 */
function ownHeadings(headings: string[], siteNames: (string | null)[], named = siteNamer(siteNames)): string[] {
  const names = siteNames.filter((name): name is string => !!name).map((name) => compact(name.replace(/^www\./i, '')));
  const logo = (heading: string) => (named?.(heading) ?? false) || names.some((name) => name.includes(compact(heading)));
  return headings
    // A permalink's pilcrow (Sphinx writes one into each heading) is no part of it.
    .map((heading) => heading.replace(/\s+/g, ' ').replace(/[\s¶§]+$/u, '').trim())
    .filter((heading) => compact(heading).length >= 3 && !logo(heading));
}

/**
 * Whether a segment of a title names the site: it is most of one of the names given (the page's stated site name, its
 * host), or holds the host's main label, and is short. Null when no name is known.
 */
function siteNamer(siteNames: (string | null)[]): ((segment: string) => boolean) | null {
  const names = siteNames
    .filter((name): name is string => !!name)
    .map((name) => compact(name.replace(/^www\./i, '')))
    .filter((name) => name.length >= 3);
  if (names.length === 0) return null;
  const labels = siteNames.filter((name): name is string => !!name && /^[\w.-]+\.[a-z]{2,}$/i.test(name)).map(mainLabel);
  return (segment) => {
    if (words(segment) > MAX_SITE_WORDS) return false;
    const letters = compact(segment);
    if (letters.length < 3) return false;
    // Most of the name, not a word of it: "Blog" does not name "The Beachbody Blog".
    return names.some((name) => name.includes(letters) && letters.length * 2 >= name.length) ||
      labels.some((label) => label.length >= 4 && letters.includes(label));
  };
}

/** Segments and the separators between them, alternating: [segment, separator, segment, …]. */
function splitKeepingSeparators(title: string, separator = SEPARATOR): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const match of title.matchAll(separator)) {
    parts.push(title.slice(at, match.index), match[0]);
    at = match.index! + match[0].length;
  }
  parts.push(title.slice(at));
  return parts;
}

function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function words(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

/** The host's registrable name without its suffix: "www.dailybugle.co.uk" → "dailybugle". */
function mainLabel(host: string): string {
  const labels = host.toLowerCase().replace(/^www\./, '').split('.');
  const keep = labels.length >= 3 && labels[labels.length - 2]!.length <= 3 && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return compact(labels[labels.length - keep] ?? '');
}

/**
 * The site's name as the page's title puts it beside the headline, found by agreement with the page's own heading:
 * when a title ("Marathon in One Year for Beginners » Take The Magic Step®") is a heading of the page on one side of a
 * separator and a short name on the other, that name is the site's — whatever the site, and wherever the page was
 * fetched from (a copy on another host names no site by its address). The heading must be the longer side, in words
 * and in letters: a site whose logo is an `<h1>` ("The Harbour Gazette") would otherwise make a short headline look
 * like the site's name.
 */
export function siteNameBesideHeadline(titles: (string | null | undefined)[], headings: string[]): string | null {
  const heads = new Set(headings.map(compact).filter((heading) => heading.length >= 3));
  if (heads.size === 0) return null;
  for (const title of titles) {
    if (!title) continue;
    const parts = splitKeepingSeparators(title.replace(/\s+/g, ' ').trim());
    if (parts.length < 3) continue;
    for (const [headline, name] of [
      [parts.slice(0, -2).join(''), parts[parts.length - 1]!],
      [parts.slice(2).join(''), parts[0]!],
    ] as const) {
      const site = name.trim();
      const shorter = words(site) < words(headline) && compact(site).length < compact(headline).length;
      if (heads.has(compact(headline)) && words(site) <= MAX_SITE_WORDS && compact(site).length >= 3 && shorter) {
        return site;
      }
    }
  }
  return null;
}

/** A title's separators for finding the page's heading in it: a colon straight after a word counts as well. */
const LOOSE_SEPARATOR = /\s+[|\-–—·•:»]{1,2}\s+|:\s+/g;
const MAX_SEGMENTS = 8;

/**
 * The headline a title holds when it is the page's own heading with the site's name beside it, and perhaps a
 * category or a department as well ("Amazon.com: Wireless Headphones … : Electronics", "Apple AirPods Pro: Amazon.co.uk:
 * Electronics & Photo"), on either side: `withoutSiteName` takes off one name at one end, not a name and a category.
 * The heading must fill whole segments, in the title's own words (its case, its punctuation), and be the longer part,
 * in words and in letters; the rest must name the site, or be a section and a name after the heading (a logo's `<h1>`
 * is shorter than the headline beside it, "Python" is not the headline of "Python: the good parts", and "Best
 * Sellers: Electronics" names no site).
 */
export function headlineInTitle(title: string, headings: string[], siteNames: (string | null)[]): string | null {
  const namesSite = siteNamer(siteNames);
  const heads = new Set(headings.map(compact).filter((heading) => heading.length >= 3));
  if (!namesSite || heads.size === 0) return null;
  const parts = splitKeepingSeparators(title.replace(/\s+/g, ' ').trim(), LOOSE_SEPARATOR);
  const segments = parts.filter((_, index) => index % 2 === 0);
  // Every run of segments is tried: a title of more than a few is not a headline with its site's name.
  if (segments.length > MAX_SEGMENTS) return null;
  const found: Array<{ headline: string; rest: string[]; first: boolean }> = [];
  for (let from = 0; from < segments.length; from++) {
    for (let to = from + 1; to <= segments.length; to++) {
      if (from === 0 && to === segments.length) continue;
      const headline = parts.slice(from * 2, to * 2 - 1).join('');
      if (heads.has(compact(headline))) found.push({ headline, rest: [...segments.slice(0, from), ...segments.slice(to)], first: from === 0 });
    }
  }
  // Two headings of the page in one title (a documentation page's topic and its manual's name, both `<h1>`): which
  // one is the headline is not the title's to say.
  if (found.length !== 1) return null;
  const { headline, rest, first } = found[0]!;
  const restText = rest.join(' ');
  const longer = words(headline) > words(restText) && compact(headline).length > compact(restText).length;
  const names = new Set(rest.filter(namesSite).map(compact));
  // A title that opens with the heading and closes with two short segments is "Headline - Section | Site" whatever the
  // site calls itself there ("Using the Fetch API - Web APIs | MDN", a name neither stated nor in the host).
  const sectioned = first && rest.length >= 2 && rest.every((segment) => words(segment) <= MAX_SITE_WORDS);
  if (!longer || (names.size === 0 && !sectioned)) return null;
  // A heading that carries the site's name itself ("Headline – Site", titled "Headline – Site - Site") loses it: only
  // the name the title repeats beside it, never a brand the heading starts with ("Nintendo Switch - OLED Model").
  const inner = splitKeepingSeparators(headline.trim());
  if (inner.length >= 3 && names.has(compact(inner[inner.length - 1]!))) return inner.slice(0, -2).join('').trim();
  if (inner.length >= 3 && names.has(compact(inner[0]!))) return inner.slice(2).join('').trim();
  return headline.trim();
}

/**
 * The headline of a page's title: the page's own heading when the title is that heading with the site's name and
 * perhaps a category beside it (`headlineInTitle`), else the title without the site's name at either end. The page's
 * `<title>` is looked at as well as Readability's: for "Site: Headline: Category" Readability keeps "Headline:
 * Category", whose rest no longer names the site. Either way the headline only takes words off the title Readability
 * gave: a heading that reads otherwise (an `og:title` written for sharing) leaves that title be.
 */
export function headlineOf(title: string, pageTitle: string, headings: string[], siteNames: (string | null)[]): string {
  const found = headlineInTitle(title, headings, siteNames) ?? headlineInTitle(pageTitle, headings, siteNames);
  // The same words as Readability's title are that title, in its typography (its curly quotes, its dashes).
  const shorter = found && compact(found) !== compact(title) && compact(title).includes(compact(found));
  const headline = shorter ? found : withoutSiteName(title, siteNames, headings);
  // A title that only says what kind of page this is ("Home Page") names nothing: the page's own heading names it.
  if (!NAMELESS.test(headline.trim())) return headline;
  const own = ownHeadings(headings, siteNames).find((heading) => words(heading) <= MAX_HEADING_WORDS);
  return own ?? headline;
}

/** Titles that name no page: a home page's, an unnamed document's. */
const NAMELESS = /^(?:home|home ?page|index|default|welcome|untitled(?: (?:document|page))?)$/i;
/** Words a heading that stands in for such a title holds at most (an `<h1>` around a paragraph is no name). */
const MAX_HEADING_WORDS = 20;
