import { baseAddress } from '@folio/dom';
import { hostOf } from './host.ts';
import { absolute } from './lazy-images.ts';
import { closestNamed, elementsNamed, tagSet } from './elements.ts';
import { siteNameBesideHeadline } from './title.ts';

/**
 * What a page states about itself — JSON-LD, `<meta>` tags, `<link rel=canonical>`, `<time>`, `<html lang dir>`.
 * Read before Readability runs, because Readability removes the scripts that carry JSON-LD.
 */
export interface PageMetadata {
  canonicalUrl: string | null;
  author: string | null;
  date: string | null;
  image: string | null;
  lang: string | null;
  dir: 'ltr' | 'rtl' | null;
  /**
   * The site's name as the page gives it, for taking it off the title: the name its title sets beside its own heading
   * (`siteNameBesideHeadline`), else `og:site_name` or `application-name`, else the host of its canonical address.
   */
  siteName: string | null;
  /** The texts of the page's first `<h1>` headings, for finding the headline in its title (`headlineInTitle`). */
  headings: string[];
}

type JsonObject = Record<string, unknown>;

const METADATA_ELEMENTS = tagSet('meta', 'link', 'script', 'time', 'h1');
const ARTICLE_OR_MAIN = tagSet('article', 'main');
const ARTICLE_TYPE = /Article|BlogPosting|Posting|Report|NewsArticle|WebPage|Review|Recipe|HowTo/;

/** The elements metadata comes from, gathered in one pass over the page (each query is a full walk in jsdom). */
interface MetadataElements {
  metas: Element[];
  links: Element[];
  jsonLd: Element[];
  times: Element[];
  headings: Element[];
}

function gather(document: Document): MetadataElements {
  const found: MetadataElements = { metas: [], links: [], jsonLd: [], times: [], headings: [] };
  for (const element of elementsNamed(document, METADATA_ELEMENTS)) {
    switch (element.localName) {
      case 'meta':
        found.metas.push(element);
        break;
      case 'link':
        found.links.push(element);
        break;
      case 'script':
        if (element.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json') found.jsonLd.push(element);
        break;
      case 'time':
        if (element.getAttribute('datetime')) found.times.push(element);
        break;
      case 'h1':
        found.headings.push(element);
        break;
    }
  }
  return found;
}

export function readMetadata(document: Document): PageMetadata {
  const base = baseAddress(document);
  const elements = gather(document);
  const meta = metaValues(elements.metas);
  const nodes = jsonLdNodes(elements.jsonLd);
  const article = nodes.find((n) => typesOf(n).some((t) => ARTICLE_TYPE.test(t) && !/^WebPage$/.test(t)))
    ?? nodes.find((n) => typesOf(n).some((t) => ARTICLE_TYPE.test(t)));
  const canonical = canonicalUrl(elements.links, meta, base);
  const headings = headingTexts(elements.headings);
  return {
    canonicalUrl: canonical,
    author: author(article, meta),
    date: publishedDate(elements.times, article, meta),
    image: leadImage(article, meta, elements.links, base),
    lang: statedLanguage(document, meta, article),
    dir: statedDirection(document),
    siteName: siteName(document, headings, meta, canonical),
    headings,
  };
}

/** The title's candidates are the ones Readability takes its title from; a page's first few headings are enough. */
function siteName(document: Document, headings: string[], meta: Map<string, string>, canonical: string | null): string | null {
  const titles = [meta.get('og:title'), meta.get('twitter:title'), meta.get('dc:title'), document.title];
  return siteNameBesideHeadline(titles, headings) ?? meta.get('og:site_name') ?? meta.get('application-name') ?? hostOf(canonical);
}

function headingTexts(headings: Element[]): string[] {
  return headings.slice(0, 8).map((heading) => heading.textContent ?? '');
}

/** `<meta>` values by lower-cased `property`, `name` or `itemprop`; the first value of a key wins. */
function metaValues(metas: Element[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const element of metas) {
    const content = element.getAttribute('content')?.trim();
    if (!content) continue;
    for (const attr of ['property', 'name', 'itemprop', 'http-equiv']) {
      const keys = element.getAttribute(attr);
      if (!keys) continue;
      for (const key of keys.toLowerCase().split(/\s+/)) if (key && !values.has(key)) values.set(key, content);
    }
  }
  return values;
}

/** Every JSON-LD object of the page, `@graph`s and arrays flattened. */
function jsonLdNodes(scripts: Element[]): JsonObject[] {
  const nodes: JsonObject[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const object = value as JsonObject;
      nodes.push(object);
      if (object['@graph']) visit(object['@graph']);
      if (object.mainEntity) visit(object.mainEntity);
    }
  };
  for (const script of scripts) {
    try {
      visit(JSON.parse((script.textContent ?? '').replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '')));
    } catch {
      // Broken JSON-LD is common and says nothing we can use.
    }
  }
  return nodes;
}

function typesOf(node: JsonObject): string[] {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}

/** The `href` of the first `<link>` whose `rel` has this keyword. */
function linkHref(links: Element[], rel: string): string | null {
  for (const link of links) {
    const rels = link.getAttribute('rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = link.getAttribute('href');
    if (href && rels.includes(rel)) return href;
  }
  return null;
}

function canonicalUrl(links: Element[], meta: Map<string, string>, base: string): string | null {
  const link = linkHref(links, 'canonical');
  for (const candidate of [link, meta.get('og:url')]) {
    if (!candidate) continue;
    const url = absolute(candidate.trim(), base);
    if (/^https?:\/\/[^/]/i.test(url)) return url;
  }
  return null;
}

function author(article: JsonObject | undefined, meta: Map<string, string>): string | null {
  const fromJson = names(article?.author ?? article?.creator);
  if (fromJson) return fromJson;
  for (const key of ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator', 'dcterms.creator', 'byl', 'twitter:creator']) {
    const value = meta.get(key);
    if (value && !/^(?:https?:|www\.)/i.test(value) && !(key === 'twitter:creator' && value.startsWith('@'))) {
      return cleanByline(value);
    }
  }
  return null;
}

function names(value: unknown): string | null {
  const list = (Array.isArray(value) ? value : [value])
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' ? (v as JsonObject).name : undefined))
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !/^https?:/i.test(v.trim()))
    .map((v) => cleanByline(v));
  const unique = [...new Set(list.filter(Boolean))];
  return unique.length ? unique.join(', ') : null;
}

/**
 * "By Jane Doe - 2019-04-10" → "Jane Doe": the "by" and a date or time after a separator go. The date is looked for
 * in a byline's length only: its pattern reads the rest of the value from each separator, and a 50 KB author of
 * separators and digits took 0.3 s (a megabyte, minutes). A longer value is no byline to trim; it is clipped where
 * it is shown.
 */
export function cleanByline(value: string): string {
  const byline = value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:by|written by|par|von|por|di|door|oleh)\s*:?\s+/i, '');
  if (byline.length > MAX_BYLINE_CHARS) return byline;
  return byline.replace(/\s+(?:[-–—|•·,]\s*|on\s+)(?=.*\d)(?:[^-–—|•·]*\b(?:\d{1,4}[-/.]\d{1,2}|\d{1,2}:\d{2}|(?:19|20)\d{2})\b.*)$/i, '').trim();
}

const MAX_BYLINE_CHARS = 1000;

const DATE_META = [
  'article:published_time', 'og:published_time', 'published_time', 'datepublished', 'article:published',
  'parsely-pub-date', 'sailthru.date', 'pubdate', 'publishdate', 'publish-date', 'publish_date', 'dc.date.issued',
  'dcterms.issued', 'dc.date', 'dcterms.date', 'date', 'article.published', 'cxenseparse:recs:publishtime',
  'original-publish-date', 'og:article:published_time',
];

function publishedDate(times: Element[], article: JsonObject | undefined, meta: Map<string, string>): string | null {
  const candidates: unknown[] = [article?.datePublished, article?.dateCreated];
  for (const key of DATE_META) candidates.push(meta.get(key));
  // <time> elements: the one marked as the publication date, then the first in the article, then the first at all.
  const marked = times.find((t) => t.hasAttribute('pubdate') || /\bdatePublished\b/i.test(t.getAttribute('itemprop') ?? ''));
  const inArticle = times.find((t) => closestNamed(t, ARTICLE_OR_MAIN) !== null);
  for (const time of [marked, inArticle, times[0]]) candidates.push(time?.getAttribute('datetime'));
  candidates.push(article?.dateModified);
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const iso = isoDate(candidate);
    if (iso) return iso;
  }
  return null;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * ISO 8601 from what pages write: ISO as is (a space before the time becomes `T`, `+0000` becomes `+00:00`),
 * `20191118`, or a date `Date` can read ("Nov 18, 2019 10:00 GMT"), which comes back as UTC — or as a bare date
 * when no time was given.
 */
export function isoDate(value: string): string | null {
  const v = value.trim();
  const iso = ISO.exec(v);
  if (iso) {
    const [, y, mo, d, h, mi, s, frac, zone] = iso;
    if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31) return null;
    // Placeholder dates ("0001-01-01T00:00:00Z") say nothing.
    if (Number(y) < 1900) return null;
    if (h === undefined) return `${y}-${mo}-${d}`;
    const z = zone === undefined ? '' : zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
    return `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${frac ?? ''}${z}`;
  }
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (compact) return isoDate(`${compact[1]}-${compact[2]}-${compact[3]}`);
  if (!/\d{4}/.test(v) || !/[a-z]/i.test(v)) return null;
  const time = Date.parse(v);
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  if (date.getFullYear() < 1900) return null;
  if (!/\d{1,2}:\d{2}/.test(v)) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
  return date.toISOString();
}

function leadImage(article: JsonObject | undefined, meta: Map<string, string>, links: Element[], base: string): string | null {
  const candidates: unknown[] = [
    meta.get('og:image:secure_url'), meta.get('og:image'), meta.get('og:image:url'), meta.get('twitter:image'),
    meta.get('twitter:image:src'), imageUrl(article?.image), imageUrl(article?.thumbnailUrl),
    linkHref(links, 'image_src'),
  ];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || candidate.trim() === '') continue;
    const url = absolute(candidate.trim(), base);
    if (/^(?:https?:|data:image\/)/i.test(url)) return url;
  }
  return null;
}

function imageUrl(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return imageUrl(value[0]);
  if (value && typeof value === 'object') {
    const object = value as JsonObject;
    return imageUrl(object.url ?? object.contentUrl ?? object['@id']);
  }
  return undefined;
}

const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;

/** A BCP 47 tag from `lang`, Content-Language or `og:locale` ("en_US" → "en-US"); junk values are ignored. */
export function normaliseLanguage(value: string | null | undefined): string | null {
  if (!value) return null;
  const tag = value.split(/[,;]/)[0]!.trim().replace(/_/g, '-');
  if (!LANGUAGE_TAG.test(tag)) return null;
  const [primary, ...rest] = tag.split('-');
  return [primary!.toLowerCase(), ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p))].join('-');
}

function statedLanguage(document: Document, meta: Map<string, string>, article: JsonObject | undefined): string | null {
  const candidates = [
    document.documentElement.getAttribute('lang'),
    document.documentElement.getAttribute('xml:lang'),
    document.body?.getAttribute('lang'),
    meta.get('content-language'),
    meta.get('language'),
    meta.get('og:locale'),
    typeof article?.inLanguage === 'string' ? article.inLanguage : null,
  ];
  for (const candidate of candidates) {
    const tag = normaliseLanguage(candidate);
    if (tag) return tag;
  }
  return null;
}

function statedDirection(document: Document): 'ltr' | 'rtl' | null {
  for (const element of [document.documentElement, document.body]) {
    const dir = directionOf(element?.getAttribute('dir'));
    if (dir) return dir;
  }
  return null;
}

/** `ltr` or `rtl` from a stated direction, any case and spacing; null for anything else. */
export function directionOf(value: string | null | undefined): 'ltr' | 'rtl' | null {
  const dir = value?.trim().toLowerCase();
  return dir === 'ltr' || dir === 'rtl' ? dir : null;
}
