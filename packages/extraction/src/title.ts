/**
 * A page's title often carries the site's name before or after the headline ("Headline | The Daily Bugle",
 * "Headline - dailybugle.com"). The article's title is the headline: a first or last segment, set off by a separator
 * with spaces around it, is dropped when it names the site — it is the page's stated site name, or its letters are
 * most of the host's (or hold the host's main label) — and is short. Nothing is matched against any particular site.
 */
const SEPARATOR = /\s+[|\-–—·•:»]{1,2}\s+/g;
const MAX_SITE_WORDS = 4;

export function withoutSiteName(title: string, siteNames: (string | null)[]): string {
  // A separator left dangling at either end ("Headline -") is the site name's place with the name missing.
  let result = title.replace(/\s+[|\-–—·•»]+$/, '').replace(/^[|\-–—·•»]+\s+/, '');
  const names = siteNames
    .filter((name): name is string => !!name)
    .map((name) => compact(name.replace(/^www\./i, '')))
    .filter((name) => name.length >= 3);
  if (names.length === 0) return result;
  const labels = siteNames.filter((name): name is string => !!name && /^[\w.-]+\.[a-z]{2,}$/i.test(name)).map(mainLabel);
  const namesSite = (segment: string): boolean => {
    if (words(segment) > MAX_SITE_WORDS) return false;
    const letters = compact(segment);
    if (letters.length < 3) return false;
    // Most of the name, not a word of it: "Blog" does not name "The Beachbody Blog".
    return names.some((name) => name.includes(letters) && letters.length * 2 >= name.length) ||
      labels.some((label) => label.length >= 4 && letters.includes(label));
  };
  const parts = splitKeepingSeparators(result);
  if (parts.length < 3) return result;
  const last = parts[parts.length - 1]!;
  const first = parts[0]!;
  if (namesSite(last)) result = parts.slice(0, -2).join('');
  else if (namesSite(first)) result = parts.slice(2).join('');
  return words(result) > 0 ? result.trim() : title;
}

/** Segments and the separators between them, alternating: [segment, separator, segment, …]. */
function splitKeepingSeparators(title: string): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const match of title.matchAll(SEPARATOR)) {
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
