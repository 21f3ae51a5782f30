import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { plainMarkupBody } from './plain-markup.ts';
import { sanitizeHtml } from './sanitize.ts';
import { unsafeParts } from './test-support/inert.ts';
import { parseBase, safeSrcset, safeUrl, urlKind } from './url-policy.ts';

/*
 * DOMPurify's own published test vectors (its test/fixtures/expect.js: title, payload, and the output
 * of DOMPurify's default configuration, or a list of outputs browsers may differ on) run through Folio's sanitiser.
 * Folio's configuration forbids more than the default and rewrites addresses, so byte equality with `expected` is not
 * the guarantee; these are:
 * - inert: the output, parsed again by an independent jsdom, has nothing that runs, submits, embeds or restyles;
 * - never more than DOMPurify: every element (by namespace) and every attribute of the output is in DOMPurify's
 *   expected output too, addresses compared after Folio's address policy; the only additions are the ones
 *   sanitize.ts documents (a checkbox is disabled, details are opened);
 * - the plain-markup path, where it answers, gives exactly the DOMPurify path's markup;
 * - sanitising the output again changes nothing (a mutation-XSS payload shows itself by not surviving the round
 *   trip), except where DOMPurify's own expected output cannot survive one either, and then the second pass is final.
 *
 * The vectors are not copied into this repository: infra/bootstrap.mjs takes them from the newest DOMPurify release
 * on the npm registry that still ships them (0.8.2, 186 vectors) into the cache. FOLIO_DOMPURIFY_VECTORS names
 * another copy instead, such as the current repository's test/fixtures/expect.mjs (its default export is read the same way).
 */
const VECTORS_PATH =
  process.env.FOLIO_DOMPURIFY_VECTORS ??
  join(process.env.FOLIO_CACHE_DIR || join(homedir(), '.cache', 'folio'), 'dompurify-vectors', '0.8.2', 'expect.js');
const BASE = 'https://site.example/articles/one.html';

interface Vector {
  title?: string;
  payload: string;
  expected: string | string[];
}

async function loadVectors(): Promise<Vector[]> {
  if (!existsSync(VECTORS_PATH)) {
    throw new Error(
      `DOMPurify's test vectors are not at ${VECTORS_PATH}: run \`node infra/bootstrap.mjs\` (npm test does), ` +
        'or name a copy in FOLIO_DOMPURIFY_VECTORS',
    );
  }
  const module = (await import(pathToFileURL(VECTORS_PATH).href)) as { default: Vector[] };
  return module.default;
}

const vectors = await loadVectors();
// A few vectors have no title: their payload's start names them.
const cases = vectors.map((vector, index) => [`${index} ${vector.title ?? vector.payload.slice(0, 60)}`, vector] as const);

/**
 * What `unsafeParts` reports that Folio's documented policy keeps on purpose: scheme-like text in an attribute that
 * is no address (`title="javascript:…"` is words), and a `data:image/*` address of an SVG `<image>`, which
 * url-policy.ts allows as it allows `<img src>` (an image cannot run script).
 */
const ADDRESS_ATTRIBUTES = new Set(['href', 'xlink:href', 'src', 'srcset', 'action', 'formaction', 'poster', 'background', 'cite']);

function policyExceptions(problem: string): boolean {
  const match = /^([\w-]+)\[([\w:-]+)=(.*)$/s.exec(problem);
  if (!match) return false;
  const [, tag, attribute, value] = match as unknown as [string, string, string, string];
  if (!ADDRESS_ATTRIBUTES.has(attribute)) return true;
  return tag === 'image' && (attribute === 'href' || attribute === 'xlink:href') && /^data:image\//i.test(value);
}

function unsafe(html: string): string[] {
  return unsafeParts(html).filter((problem) => !policyExceptions(problem));
}

/** One jsdom of the test's own (not the sanitiser's) to read outputs; parsed in a body, as DOMPurify parses. */
const reader = new JSDOM('<!doctype html><body></body>').window.document;

function parsed(html: string): Element[] {
  const body = reader.createElement('body');
  body.innerHTML = html;
  return Array.from(body.querySelectorAll('*'));
}

/** An attribute's value as Folio's address policy leaves it; undefined where the policy drops it. */
function asPolicyLeavesIt(tag: string, name: string, value: string, base: URL | null): string | undefined {
  if (name === 'srcset') return safeSrcset(value, base) ?? undefined;
  const kind = urlKind(name, tag);
  return kind === null ? value : (safeUrl(value, kind, base) ?? undefined);
}

/** Elements and attributes of some markup, counted: `ns tag` and `ns tag [name=value]`. */
function inventory(html: string, valueOf: (tag: string, name: string, value: string) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const element of parsed(html)) {
    const tag = `${element.namespaceURI} ${element.localName}`;
    add(tag);
    for (const attribute of Array.from(element.attributes)) {
      const value = valueOf(element.localName, attribute.name, attribute.value);
      if (value !== undefined) add(`${tag} [${attribute.name}=${value}]`);
    }
  }
  return counts;
}

/**
 * The additions sanitize.ts and url-policy.ts document: a kept checkbox is disabled, details print open, and with a
 * base a relative address becomes an absolute one on the base's site (such as `\u180Ejavascript:x`, which a browser
 * resolves as a path, not a scheme, and which DOMPurify drops on sight).
 */
function documentedAddition(key: string, base: URL | null): boolean {
  if (/^\S+ input \[disabled=\]$/.test(key) || /^\S+ details \[open=\]$/.test(key)) return true;
  // A data:image address of an SVG <image>: DOMPurify keeps it since its #205 (an image runs no script), as
  // url-policy.ts does; the 0.8.2 vectors predate that and expect it gone.
  if (/^http:\/\/www\.w3\.org\/2000\/svg image \[(?:xlink:)?href=data:image\//.test(key)) return true;
  const address = /^\S+ \S+ \[(?:href|xlink:href|src|poster|background|cite)=(.*)\]$/s.exec(key)?.[1];
  return base !== null && address !== undefined && URL.canParse(address) && new URL(address).origin === base.origin;
}

/** What the output has that DOMPurify's expected output (after the address policy) has fewer of, or not at all. */
function beyond(ours: string, expected: string, baseUrl: string | null): string[] {
  const base = parseBase(baseUrl);
  const theirs = inventory(expected, (tag, name, value) => asPolicyLeavesIt(tag, name, value, base));
  return [...inventory(ours, (_tag, _name, value) => value)]
    .filter(([key, count]) => count > (theirs.get(key) ?? 0) && !documentedAddition(key, base))
    .map(([key]) => key);
}

function survivesRoundTrip(html: string): boolean {
  const body = reader.createElement('body');
  body.innerHTML = html;
  return body.innerHTML === html;
}

describe("DOMPurify's published test vectors through Folio's sanitiser", () => {
  it('has the vectors', () => {
    // 0.8.2's file holds 186 vectors (the repository's held 223 at 3.4.14); fewer means a truncated or wrong file.
    expect(vectors.length).toBeGreaterThanOrEqual(186);
  });

  // Without a base addresses stay as written, so the comparison with DOMPurify is strict; with one, relative
  // addresses become absolute on the base's site, which DOMPurify (judging the written value) may have dropped.
  describe.each([null, BASE])('base %s', (baseUrl) => {
    it.each(cases)('%s', (_name, vector) => {
      const expectedOutputs = Array.isArray(vector.expected) ? vector.expected : [vector.expected];
      const ours = sanitizeHtml(vector.payload, { baseUrl });

      expect(unsafe(ours), 'inert').toEqual([]);

      // Never more than DOMPurify's default kept: compared with the closest of the outputs it accepts.
      const excess = expectedOutputs.map((expected) => beyond(ours, expected, baseUrl));
      expect(excess.reduce((a, b) => (b.length < a.length ? b : a)), 'only what DOMPurify also keeps').toEqual([]);

      const plain = plainMarkupBody(vector.payload, baseUrl);
      if (plain) expect(plain.html(), 'the plain-markup path').toBe(ours);

      const again = sanitizeHtml(ours, { baseUrl });
      if (again !== ours) {
        // Only where DOMPurify's own output is no fixed point of parsing either (say, a heading nested in a heading).
        expect(expectedOutputs.some((expected) => !survivesRoundTrip(expected)), 'sanitising again changes nothing').toBe(true);
        expect(unsafe(again), 'inert after a second pass').toEqual([]);
        expect(sanitizeHtml(again, { baseUrl }), 'the second pass is final').toBe(again);
      }
    });
  });
});
