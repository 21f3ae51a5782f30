import { elementsNamed, tagSet } from './elements.ts';

/**
 * React's streaming server rendering (React 18+, Next.js's App Router) sends a page's shell first, with a
 * `<template id="B:n">` (a Suspense boundary) or `<template id="P:n">` (a postponed segment) where content is still
 * to come, and later, at the end of the body, the content itself in a `<div hidden id="S:m">` with a small script
 * call — `$RC("B:n","S:m")` or `$RS("S:m","P:n")` — that moves it into place. Pages are read with scripting off,
 * so on such a page the product description, the thread or the list sits hidden at the end of the body, and
 * Readability and the text writer skip it: the page reads as empty or as its shell. The scripts' work is done
 * here instead, as a browser would have done it on load.
 */

/**
 * Segment id (`S:m`) → the placeholder it replaces (`B:n` or `P:n`), as the page's script calls state it; null
 * when the page holds no segment at all (most pages: then the document is not walked for them).
 */
export function streamedSegmentPlaces(html: string): Map<string, string> | null {
  if (!html.includes('"S:')) return null;
  const places = new Map<string, string>();
  for (const [, boundary, segment] of html.matchAll(/\$RC\(\s*"(B:[0-9a-z]+)"\s*,\s*"(S:[0-9a-z]+)"\s*\)/g)) {
    places.set(segment!, boundary!);
  }
  for (const [, segment, placeholder] of html.matchAll(/\$RS\(\s*"(S:[0-9a-z]+)"\s*,\s*"(P:[0-9a-z]+)"\s*\)/g)) {
    places.set(segment!, placeholder!);
  }
  return places;
}

const SEGMENT_ID = /^S:[0-9a-z]+$/;
const DIV = tagSet('div');
const TEMPLATE = tagSet('template');

/**
 * Moves every hidden streamed segment into the placeholder its script names (`places`, from the page's HTML:
 * scripts are cut before parsing). A page saved without its scripts names none: a segment then goes where the
 * boundary or placeholder of the same number is, as React numbers them on most pages, or, when there is none,
 * is shown where it is. A boundary's fallback (a spinner, a skeleton) goes with the template, as `$RC` removes it.
 */
export function placeStreamedSegments(document: Document, places: ReadonlyMap<string, string> | null): void {
  const body = document.body;
  if (!body || !places) return;
  const segments = hiddenSegments(body);
  if (segments.length === 0) return;
  const templates = new Map<string, Element>();
  for (const template of elementsNamed(body, TEMPLATE)) {
    if (/^[BP]:[0-9a-z]+$/.test(template.id)) templates.set(template.id, template);
  }
  for (const segment of segments) {
    const number = segment.id.slice(2);
    const place = places.get(segment.id);
    const template = place ? templates.get(place) : templates.get(`B:${number}`) ?? templates.get(`P:${number}`);
    if (!template || !template.isConnected || segment.contains(template)) {
      segment.removeAttribute('hidden');
      continue;
    }
    if (template.id.startsWith('B:')) removeFallback(template);
    template.replaceWith(...Array.from(segment.childNodes));
    segment.remove();
  }
}

// A walk, not `getElementsByTagName`: iterating jsdom's live collection reads its `length` through a Proxy that looks
// the name up among all its elements (`namedItem`) at every step, which made a page of 40,000 divs take seconds here.
function hiddenSegments(body: Element): Element[] {
  return elementsNamed(body, DIV).filter((div) => div.hasAttribute('hidden') && SEGMENT_ID.test(div.id));
}

/**
 * What follows a boundary's template up to the boundary's end (the comment `/$`): the fallback shown meanwhile.
 * Nothing goes when the end is not found (a page saved without its comments).
 */
function removeFallback(template: Element): void {
  const fallback: ChildNode[] = [];
  for (let next = template.nextSibling; next; next = next.nextSibling) {
    if (next.nodeType === 8 && (next as Comment).data === '/$') {
      for (const node of fallback) node.remove();
      return;
    }
    fallback.push(next);
  }
}
