import { parse, serialize, type DefaultTreeAdapterMap } from 'parse5';

type Parse5Node = DefaultTreeAdapterMap['node'];
type Parse5Element = DefaultTreeAdapterMap['element'];

/**
 * HTML parsed without jsdom: parse5 (the parser inside jsdom, so the same tree a browser builds) into plain objects
 * that offer the few DOM properties a reader of a tree needs (`nodeType`, `localName`, `data`, `firstChild`,
 * `nextSibling`, `children`, `getAttribute`, `hasAttribute`, `textContent`). jsdom builds every node as a full DOM
 * object with its wrappers: for a 1,500-word article that is 15 ms, against 1 ms for parse5 alone. Readers that only
 * walk a tree (the text serializer) take this one; anything that needs a live DOM (DOMPurify, Readability) does not.
 */
export interface LightText {
  readonly nodeType: 3;
  readonly data: string;
  readonly textContent: string;
  readonly firstChild: null;
  nextSibling: LightNode | null;
}

export interface LightElement {
  readonly nodeType: 1;
  readonly localName: string;
  firstChild: LightNode | null;
  nextSibling: LightNode | null;
  readonly children: LightElement[];
  readonly textContent: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

export type LightNode = LightText | LightElement;

class Text implements LightText {
  readonly nodeType = 3 as const;
  readonly firstChild = null;
  nextSibling: LightNode | null = null;
  readonly data: string;
  constructor(data: string) {
    this.data = data;
  }
  get textContent(): string {
    return this.data;
  }
}

class Element implements LightElement {
  readonly nodeType = 1 as const;
  firstChild: LightNode | null = null;
  nextSibling: LightNode | null = null;
  readonly children: LightElement[] = [];
  readonly localName: string;
  private readonly attributes: ReadonlyArray<{ name: string; value: string }>;
  constructor(
    localName: string,
    attributes: ReadonlyArray<{ name: string; value: string }>,
  ) {
    this.localName = localName;
    this.attributes = attributes;
  }
  getAttribute(name: string): string | null {
    for (const a of this.attributes) if (a.name === name) return a.value;
    return null;
  }
  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }
  get textContent(): string {
    let text = '';
    for (let child = this.firstChild; child; child = child.nextSibling) text += child.textContent;
    return text;
  }
}

/** A parsed body: the light tree to read, and the markup as a browser would serialise it (`innerHTML`). */
export interface LightBody {
  body: LightElement;
  html(): string;
}

/** Parses an HTML fragment as the body of a document (as `parseHtmlDocument` does), into a light tree. */
export function parseLightBody(html: string): LightBody {
  return parseLightBodyIf(html, () => true)!;
}

/** An element as the parser made it; an inspector may change its attributes' values or remove attributes. */
export interface ParsedElement {
  readonly tagName: string;
  attrs: Array<{ name: string; value: string }>;
}

/**
 * The same, with every element shown to `inspect` first (in document order), which may change its attributes and
 * answers whether the element may stay; the first refusal ends the parse with null. The serialised markup (`html()`)
 * reflects the changes.
 */
export function parseLightBodyIf(
  html: string,
  inspect: (element: ParsedElement) => boolean,
  options: { asDomPurify?: boolean } = {},
): LightBody | null {
  const body = options.asDomPurify ? bodyOf(parseAsDomPurify(html)) : parseBodyTree(html);
  // A document can have no body at all (`<frameset>` takes its place): nothing in it is article content.
  if (!body) return options.asDomPurify ? null : { body: new Element('body', []), html: () => '' };
  const light = convert(body, inspect, true);
  return light ? { body: light as LightElement, html: () => serialize(body) } : null;
}

/**
 * An HTML fragment parsed as the body of a document (as `parseHtmlDocument` does), as parse5's own mutable tree: for a
 * caller that edits the tree and serialises it again (parse5's `serialize`). Undefined when parsing leaves no body
 * (a `<frameset>` takes its place).
 */
export function parseBodyTree(html: string): Parse5Element | undefined {
  return bodyOf(parse(`<!DOCTYPE html><body>${html}`, { scriptingEnabled: false }));
}

/**
 * The tree DOMPurify builds of a string: the string parsed as a whole document, as DOMParser does (no doctype, so in
 * quirks mode, and from "before html", where a stray end tag is dropped), with its leading whitespace put back in
 * front of the body's content.
 */
function parseAsDomPurify(html: string): DefaultTreeAdapterMap['document'] {
  const leading = /^[\r\n\t ]+/.exec(html)?.[0];
  const document = parse(html, { scriptingEnabled: false });
  const body = bodyOf(document);
  if (leading && body) {
    const first = body.childNodes[0];
    if (first?.nodeName === '#text') (first as DefaultTreeAdapterMap['textNode']).value = leading + (first as DefaultTreeAdapterMap['textNode']).value;
    else body.childNodes.unshift({ nodeName: '#text', value: leading, parentNode: body } as DefaultTreeAdapterMap['textNode']);
  }
  return document;
}

function bodyOf(document: DefaultTreeAdapterMap['document']): Parse5Element | undefined {
  const htmlElement = document.childNodes.find((n): n is Parse5Element => n.nodeName === 'html');
  return htmlElement?.childNodes.find((n): n is Parse5Element => n.nodeName === 'body');
}

const REFUSED = Symbol('refused');

function convert(node: Parse5Node, inspect: (element: ParsedElement) => boolean, root = false): LightNode | null {
  try {
    return convertNode(node, inspect, root);
  } catch (error) {
    if (error === REFUSED) return null;
    throw error;
  }
}

function convertNode(node: Parse5Node, inspect: (element: ParsedElement) => boolean, root: boolean): LightNode | null {
  if (node.nodeName === '#text') return new Text((node as DefaultTreeAdapterMap['textNode']).value);
  if (!('tagName' in node)) {
    // Comments carry no text; an inspector sees them too (as `#comment`), since they stay in the markup.
    if (node.nodeName === '#comment' && !inspect({ tagName: '#comment', attrs: [] })) throw REFUSED;
    return null;
  }
  if (!root && !inspect(node)) throw REFUSED;
  const element = new Element(node.tagName, node.attrs);
  // <template> holds its children in a content fragment; nothing in it is shown, so it stays empty here too.
  let last: LightNode | null = null;
  for (const child of node.childNodes) {
    const light = convertNode(child, inspect, false);
    if (!light) continue;
    if (last) last.nextSibling = light;
    else element.firstChild = light;
    if (light.nodeType === 1) element.children.push(light);
    last = light;
  }
  return element;
}
