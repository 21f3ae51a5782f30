import { createHash } from 'node:crypto';
import { ARTICLE_STYLESHEET, PRINTED_ARTICLE_STYLESHEET } from './stylesheet.ts';

/**
 * The article page's Content-Security-Policy, carried in a `<meta http-equiv>` so it travels with the page (an html
 * result is handed to users; the pdf renderer loads it with `setContent`).
 *
 * Script is forbidden outright (`script-src 'none'`, and `default-src 'none'` for everything not listed: frames,
 * objects, fetch/XHR/WebSocket, workers, manifests). Forms cannot submit and `<base>` cannot move links. What a
 * printable article needs stays allowed: images, media and fonts from the network or `data:`, stylesheets from the
 * network (`css_url` and its `@import`s). Inline styles are limited to the service's own stylesheets by their hashes
 * (the read page's and the printed page's, `stylesheet.ts`), so even a `style` element or attribute that slipped into
 * the content would not apply. Which network addresses are actually reachable is the renderer's boundary to decide
 * (invariant 7, docs/invariants.md), not the page's.
 *
 * The policy is one constant for every page, and must stay one: the pdf renderer prints in warm tabs, and a tab keeps
 * the policy of the first page it printed (`setContent` writes the next page into the same document, whose policies
 * only accumulate). A page with a stylesheet of another hash prints unstyled in a tab that printed before (tried on
 * 2026-12-02: the article page with one rule changed, its own hash in its policy, printed as bare HTML). So both
 * stylesheets' hashes are in it, whichever page it travels with.
 */
const hashOf = (stylesheet: string) => `sha256-${createHash('sha256').update(stylesheet, 'utf8').digest('base64')}`;

export const ARTICLE_STYLESHEET_HASH = hashOf(ARTICLE_STYLESHEET);
const PRINTED_ARTICLE_STYLESHEET_HASH = hashOf(PRINTED_ARTICLE_STYLESHEET);

export const ARTICLE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  'img-src http: https: data:',
  'media-src http: https: data:',
  'font-src http: https: data:',
  `style-src '${ARTICLE_STYLESHEET_HASH}' '${PRINTED_ARTICLE_STYLESHEET_HASH}' http: https:`,
].join('; ');
