import { parseLightBody, childElements } from '@folio/dom';
import { countWords } from './words.ts';
import { HEADINGS } from './elements.ts';

/**
 * Readable plain text from article HTML. Readability's `textContent` runs blocks together ("end of one
 * paragraphStart of the next"), which is neither readable nor countable, so this walks the tree and lays the text
 * out the way a reader sees it: paragraphs apart, headings on their own lines, list items with bullets or numbers,
 * table rows one per line with tab-separated cells, `<br>` as a line break and `<pre>` kept verbatim.
 */
export interface TextOptions {
  /** Append link addresses (`words (https://…)`) and images (`[image: alt](src)`); default false: words only. */
  includeLinks?: boolean;
}

export function htmlToText(html: string, options: TextOptions = {}): string {
  // parse5 alone, not jsdom: the same tree, without jsdom's cost of building every node as a DOM object (15×).
  return nodeToText(parseLightBody(html).body, options);
}

/**
 * What the walk reads of a tree: a few properties that jsdom's nodes and @folio/dom's light nodes both have, so a
 * tree already in a DOM is laid out where it lies and a string is parsed into the cheaper light tree.
 */
interface ReadableNode {
  readonly nodeType: number;
  readonly firstChild: ReadableNode | null;
  readonly nextSibling: ReadableNode | null;
  readonly textContent: string | null;
}
interface ReadableText extends ReadableNode {
  readonly data: string;
}
interface ReadableElement extends ReadableNode {
  readonly localName: string;
  readonly children: ArrayLike<ReadableElement> & Iterable<ReadableElement>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

/** The same layout from a node already in a tree (no re-parse). */
export function nodeToText(root: ReadableNode, options: TextOptions = {}): string {
  const includeLinks = options.includeLinks ?? false;
  const laid = layOut(root, includeLinks, includeLinks);
  // Captions go where their images go, and words alone leave both out; but a gallery's captions are all the words it
  // has besides its headings, and a text of its headings alone tells a reader nothing of it: such a text keeps them.
  // Not more than that: on a page of teasers the photos' captions and credits can outweigh the teasers' own words
  // and are not what a reader came for (NPR's section pages), while a shop's grid may caption its cards with the
  // products' names (measured on WCXB's dev pages: one page better, one worse; this rule changes none of them).
  if (laid.captionWords === 0 || countWords(laid.text) > headingWords(root)) return laid.text;
  return layOut(root, false, true).text;
}

interface LaidOut {
  text: string;
  /** Words of the captions left out. */
  captionWords: number;
}

function layOut(root: ReadableNode, includeLinks: boolean, includeCaptions: boolean): LaidOut {
  const writer = new TextWriter();
  const walker = new Walker(writer, includeLinks, includeCaptions);
  walker.children(root);
  return { text: writer.result(), captionWords: walker.captionWords };
}

/**
 * Words of the headings under `node` that the text writes without its captions (a heading inside another counts
 * once, with it): one pass, made only for a text that left captions out.
 */
function headingWords(node: ReadableNode): number {
  let words = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1) continue;
    const element = child as ReadableElement;
    if (SKIPPED.has(element.localName) || element.localName === 'figcaption' || element.hasAttribute('hidden')) continue;
    words += HEADINGS.has(element.localName) ? countWords(element.textContent ?? '') : headingWords(element);
  }
  return words;
}

/** Elements that never show text. */
const SKIPPED = new Set([
  'script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link', 'iframe', 'object', 'embed',
  'svg', 'math', 'canvas', 'video', 'audio', 'select', 'button', 'input', 'textarea', 'map', 'dialog',
]);

/** Blocks that stand apart from their neighbours by a blank line. */
const PARAGRAPH_BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'blockquote', 'figure',
  'figcaption', 'address', 'details', 'summary', 'form', 'fieldset', 'legend', 'center', 'hgroup', 'dl',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'table', 'ul', 'ol', 'hr', 'caption',
]);


/** Blocks that only need a line of their own. */
const LINE_BLOCKS = new Set(['li', 'dt', 'dd', 'tr', 'option', 'picture']);

/** Whether an element's text is never shown (`SKIPPED`). */
export function showsNoText(localName: string): boolean {
  return SKIPPED.has(localName);
}

/** Whether an element sets its text apart from what is around it: a block, a line, a cell or a break. */
export function setsTextApart(localName: string): boolean {
  return PARAGRAPH_BLOCKS.has(localName) || LINE_BLOCKS.has(localName) || localName === 'td' || localName === 'th' || localName === 'br';
}

const BULLET = '• ';
const INDENT = '  ';

/**
 * Accumulates text with HTML's whitespace collapsing, and turns the breaks blocks ask for into newlines only when
 * more text follows (so empty blocks leave no holes and the result needs no trimming of blank runs).
 */
class TextWriter {
  private readonly out: string[] = [];
  private pendingBreak = 0;
  private pendingSpace = false;
  private lineOpen = false;
  private written = false;
  /** Prefix of continuation lines (list nesting). */
  indent = '';
  /** A bullet or number waiting for its item's first text. */
  private marker: string | null = null;

  text(raw: string): void {
    const collapsed = raw.replace(/[\t\n\f\r ]+/g, ' ');
    if (collapsed === '') return;
    let s = collapsed;
    if (s.startsWith(' ')) {
      this.pendingSpace = true;
      s = s.slice(1);
    }
    if (s === '') return;
    const trailing = s.endsWith(' ');
    if (trailing) s = s.slice(0, -1);
    this.openLine();
    if (this.pendingSpace && this.lineHasText()) this.out.push(' ');
    this.out.push(s);
    this.pendingSpace = trailing;
  }

  /** Text that keeps its spaces and newlines (`<pre>`). */
  verbatim(raw: string): void {
    if (raw === '') return;
    const lines = raw.replace(/\r\n?/g, '\n').split('\n');
    lines.forEach((line, i) => {
      if (i > 0) this.lineBreak();
      if (line === '') return;
      this.openLine();
      this.out.push(line);
    });
    this.pendingSpace = false;
  }

  /** Asks for `lines` newlines (1: a new line, 2: a blank line) before the next text. */
  block(lines: 1 | 2): void {
    // A list item has asked for its own line already; the blocks it opens with do not push it further down.
    if (this.marker !== null) return;
    if (this.written) this.pendingBreak = Math.max(this.pendingBreak, lines);
    this.pendingSpace = false;
  }

  /** A hard line break (`<br>`): always ends the line, even an empty one. */
  lineBreak(): void {
    if (!this.written && this.marker === null) return;
    if (this.marker !== null) this.openLine();
    this.out.push('\n');
    this.lineOpen = false;
    this.pendingSpace = false;
    this.pendingBreak = 0;
  }

  /** Starts a list item: its marker is written with the item's first text. */
  item(marker: string): void {
    this.marker = null;
    this.block(1);
    this.marker = marker;
  }

  private lineHasText(): boolean {
    return this.lineOpen && this.out.length > 0 && !this.out[this.out.length - 1]!.endsWith('\n');
  }

  private openLine(): void {
    if (this.lineOpen && this.pendingBreak === 0) return;
    if (this.written) {
      const breaks = this.lineOpen ? this.pendingBreak : Math.max(0, this.pendingBreak - 1);
      if (breaks > 0) this.out.push('\n'.repeat(breaks));
    }
    this.pendingBreak = 0;
    if (this.marker !== null) {
      this.out.push(this.marker);
      this.marker = null;
    } else {
      this.out.push(this.indent);
    }
    this.lineOpen = true;
    this.written = true;
    this.pendingSpace = false;
  }

  result(): string {
    return this.out
      .join('')
      .split('\n')
      .map((line) => line.replace(TRAILING_BLANKS, ''))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\n+$/g, '');
  }
}

/**
 * Spaces, tabs and no-break spaces that end a line. The lookbehind lets a match start only where a run starts: plain
 * `/[ \t\u00a0]+$/` tries again from every character of a run that does not end the line, and 60 KB of tabs in a
 * `<pre>` took 3.5 s.
 */
const TRAILING_BLANKS = /(?<![ \t\u00a0])[ \t\u00a0]+$/;

class Walker {
  private readonly writer: TextWriter;
  private readonly includeLinks: boolean;
  private readonly includeCaptions: boolean;
  captionWords = 0;
  constructor(writer: TextWriter, includeLinks: boolean, includeCaptions: boolean) {
    this.writer = writer;
    this.includeLinks = includeLinks;
    this.includeCaptions = includeCaptions;
  }

  children(node: ReadableNode): void {
    for (let child = node.firstChild; child; child = child.nextSibling) this.node(child);
  }

  node(node: ReadableNode): void {
    if (node.nodeType === 3) {
      this.writer.text((node as ReadableText).data.replace(/\u00a0/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as ReadableElement;
    const tag = element.localName;
    if (SKIPPED.has(tag) || element.hasAttribute('hidden')) return;
    switch (tag) {
      case 'br':
        this.writer.lineBreak();
        return;
      case 'img':
        this.image(element);
        return;
      case 'figcaption':
        // Captions describe images; the text keeps them where it keeps the images (or has no other words).
        if (!this.includeCaptions) {
          this.captionWords += countWords(element.textContent ?? '');
          return;
        }
        break;
      case 'a':
        this.link(element);
        return;
      case 'pre':
        this.writer.block(2);
        this.writer.verbatim(preformattedText(element));
        this.writer.block(2);
        return;
      case 'ul':
      case 'ol':
        this.list(element);
        return;
      case 'table':
        this.table(element);
        return;
      case 'dd':
        this.indented(element);
        return;
      case 'td':
      case 'th':
        // A cell outside a table we laid out (stray markup): keep its text apart from its neighbours.
        this.writer.text(' ');
        this.children(element);
        this.writer.text(' ');
        return;
    }
    const lines = PARAGRAPH_BLOCKS.has(tag) ? 2 : LINE_BLOCKS.has(tag) ? 1 : 0;
    if (lines) this.writer.block(lines);
    this.children(element);
    if (lines) this.writer.block(lines);
  }

  private image(element: ReadableElement): void {
    if (!this.includeLinks) return;
    const src = element.getAttribute('src');
    if (!src) return;
    const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
    // An inline data: image would put kilobytes of base64 into the text: it is named, not addressed.
    const address = /^data:/i.test(src) ? '' : `(${src})`;
    this.writer.text(` [image${alt ? `: ${alt}` : ''}]${address} `);
  }

  private link(element: ReadableElement): void {
    this.children(element);
    if (!this.includeLinks) return;
    const href = element.getAttribute('href')?.trim();
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return;
    const words = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!words) return;
    if (words === href || words === href.replace(/^mailto:/i, '')) return;
    this.writer.text(` (${href})`);
  }

  private list(element: ReadableElement): void {
    const ordered = element.localName === 'ol';
    const nested = this.writer.indent !== '';
    this.writer.block(nested ? 1 : 2);
    const reversed = ordered && element.hasAttribute('reversed');
    const items = childElements(element).filter((c) => c.localName === 'li');
    const start = Number.parseInt(element.getAttribute('start') ?? '', 10);
    let n = Number.isFinite(start) ? start : reversed ? items.length : 1;
    const outer = this.writer.indent;
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1 && (child as ReadableElement).localName === 'li') {
        const value = Number.parseInt((child as ReadableElement).getAttribute('value') ?? '', 10);
        if (ordered && Number.isFinite(value)) n = value;
        const marker = ordered ? `${n}. ` : BULLET;
        this.writer.item(outer + marker);
        this.writer.indent = outer + ' '.repeat(marker.length);
        this.children(child);
        this.writer.indent = outer;
        this.writer.block(1);
        n += reversed ? -1 : 1;
      } else {
        this.node(child);
      }
    }
    this.writer.block(nested ? 1 : 2);
  }

  private indented(element: ReadableElement): void {
    const outer = this.writer.indent;
    this.writer.block(1);
    this.writer.indent = outer + INDENT;
    this.children(element);
    this.writer.indent = outer;
    this.writer.block(1);
  }

  /**
   * Rows one per line, cells separated by tabs. A layout table (no row with two cells) is read as the blocks it
   * holds instead, so a page built from tables still reads as paragraphs.
   */
  private table(element: ReadableElement): void {
    const rows = ownRows(element);
    const isGrid = rows.some((row) => cellsOf(row).length > 1);
    this.writer.block(2);
    const caption = childElements(element).find((c) => c.localName === 'caption');
    if (caption) {
      this.children(caption);
      this.writer.block(1);
    }
    if (!isGrid) {
      for (const row of rows) {
        for (const cell of cellsOf(row)) {
          this.writer.block(2);
          this.children(cell);
          this.writer.block(2);
        }
      }
      return;
    }
    for (const row of rows) {
      const cells = cellsOf(row).map((cell) =>
        // A blank run holding a line break becomes one space; each run is read once (a pattern around the
        // break, tried from each blank of a long run without one, read the run again from each).
        this.cell(cell).replace(/\s+/g, (blank) => (blank.includes('\n') ? ' ' : blank)).replace(/\t/g, ' '),
      );
      if (cells.every((c) => c === '')) continue;
      this.writer.block(1);
      this.writer.verbatim(cells.join('\t'));
      this.writer.block(1);
    }
    this.writer.block(2);
  }

  /** A grid's cell, laid out on its own line of the row; the captions it leaves out count for the whole text. */
  private cell(cell: ReadableElement): string {
    const laid = layOut(cell, this.includeLinks, this.includeCaptions);
    this.captionWords += laid.captionWords;
    return laid.text;
  }
}

/** The rows that belong to this table (not to tables nested in its cells). */
function ownRows(table: ReadableElement): ReadableElement[] {
  const rows: ReadableElement[] = [];
  for (const child of childElements(table)) {
    if (child.localName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.localName)) {
      for (const row of childElements(child)) if (row.localName === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: ReadableElement): ReadableElement[] {
  return childElements(row).filter((c) => c.localName === 'td' || c.localName === 'th');
}

/** The text of a `<pre>` as written, with `<br>` as newlines (`textContent` would drop them). */
function preformattedText(element: ReadableElement): string {
  let text = '';
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) text += (child as ReadableText).data;
    else if (child.nodeType === 1) text += (child as ReadableElement).localName === 'br' ? '\n' : preformattedText(child as ReadableElement);
  }
  return text;
}
