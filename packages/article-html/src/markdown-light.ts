import type { LightElement } from '@folio/dom';
import type TurndownService from 'turndown';
import { serviceFor, tidy } from './markdown-service.ts';
import { keepsImage } from './markdown-rules.ts';
import { RESHAPED_IN_CELLS } from './markdown-tables.ts';

export interface LightMarkdownOptions {
  includeLinks?: boolean;
  /**
   * Which markup's Markdown is wanted: the markup the tree serialises to (`LightBody.html()`, the default: the tree
   * is `plainMarkupBody`'s), or the markup the tree was parsed from by `parseLightBody` (parsed as domino parses it).
   */
  markup?: 'serialised' | 'source';
}

/**
 * Markdown from an already parsed light tree (@folio/dom), byte for byte what turndown gives for the same markup
 * (`htmlToMarkdownByTurndown`), in a fraction of its time. That path parses the markup again with domino, clones
 * it, and turndown then asks every node questions that walk its whole subtree (is it blank: its text and 27
 * `getElementsByTagName`; its flanking whitespace: its text again): ≈8 ms for a 1,500-word article.
 *
 * Turndown's output is the specification, so turndown does the writing here too: every node goes through the same
 * service's rules (`forNode`, its rules' replacements, its escape, `tidy`). What this file replaces is only the tree
 * under them and turndown's driver: a small mutable copy of the light tree, turndown's whitespace collapsing and
 * its `process`/`join` ported line by line, and its per-node marks (isBlank, flankingWhitespace) computed once per
 * node instead of once per question.
 *
 * The copy is the tree domino would build from the markup (`options.markup`), with Folio's own preparation
 * (`dropImages`, `shapeTables`) applied. Where that cannot be had without copying more of the DOM path than is worth
 * it, the answer is null and the caller takes turndown: tables that `shapeTables` would reshape, a table inside a
 * paragraph (parsed in quirks mode, it stays there; parsed again it does not), a table turndown would keep as HTML,
 * elements outside the plain article markup, and the few attributes read differently (`nameOf`). Comments are not
 * in a light tree: markup with comments is the caller's to keep away (`htmlToMarkdown` does).
 */
export function lightToMarkdown(body: LightElement, options: LightMarkdownOptions = {}): string | null {
  const includeLinks = options.includeLinks ?? false;
  const service = serviceFor(includeLinks);
  try {
    const root = copyCollapsed(body, includeLinks, (options.markup ?? 'serialised') === 'serialised');
    const output = childrenMarkdown(root, rulesFor(service));
    // turndown's postProcess: rules that collect (reference links) append what they collected.
    for (const rule of service.rules.array as Array<TurndownService.Rule & { append?: (o: unknown) => string }>) {
      if (rule.append) join(output, rule.append(service.options));
    }
    // (turndown's `/[\t\r\n\s]+$/` is `\s+$`, which is what trimEnd removes.)
    const markdown = tidy(output.join('').replace(/^[\t\r\n]+/, '').trimEnd());
    return markdown === '' ? '' : `${markdown}\n`;
  } catch (error) {
    if (error === REFUSED) return null;
    throw error;
  }
}

const REFUSED = Symbol('refused');
function refuse(): never {
  throw REFUSED;
}

// turndown's element classes (turndown.cjs.js), which its whitespace collapsing and its blank test go by.
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BLOCKQUOTE', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DIR', 'DIV', 'DL', 'DT',
  'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'FRAMESET', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HGROUP', 'HR', 'HTML', 'ISINDEX', 'LI', 'MAIN', 'MENU', 'NAV', 'NOFRAMES', 'NOSCRIPT', 'OL', 'OUTPUT', 'P', 'PRE',
  'SECTION', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
]);
const VOID = new Set([
  'AREA', 'BASE', 'BR', 'COL', 'COMMAND', 'EMBED', 'HR', 'IMG', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE',
  'TRACK', 'WBR',
]);
const MEANINGFUL_WHEN_BLANK = new Set(['A', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TH', 'TD', 'IFRAME', 'SCRIPT', 'AUDIO', 'VIDEO']);

/**
 * The elements of plain article markup (plain-markup.ts), the ones whose DOM this copy is known to stand in for: from
 * their local name to their `nodeName`.
 */
const KNOWN = new Map(
  [
    'BODY', 'P', 'DIV', 'SPAN', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'MAIN', 'ASIDE', 'NAV', 'H1', 'H2', 'H3', 'H4',
    'H5', 'H6', 'BLOCKQUOTE', 'PRE', 'CODE', 'KBD', 'SAMP', 'VAR', 'EM', 'STRONG', 'B', 'I', 'U', 'S', 'DEL', 'INS',
    'MARK', 'SMALL', 'SUB', 'SUP', 'ABBR', 'CITE', 'Q', 'DFN', 'TIME', 'BR', 'HR', 'WBR', 'UL', 'OL', 'LI', 'DL', 'DT',
    'DD', 'FIGURE', 'FIGCAPTION', 'ADDRESS', 'A', 'IMG', 'TABLE', 'CAPTION', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'COLGROUP',
    'COL', 'TH', 'TD', 'INPUT', 'CENTER', 'PICTURE', 'SOURCE',
  ].map((name) => [name.toLowerCase(), name]),
);

type WorkNode = WorkText | WorkElement;

/** A text node, with the DOM properties turndown and its rules read. */
class WorkText {
  readonly nodeType = 3 as const;
  readonly nodeName = '#text';
  readonly childNodes: WorkNode[] = [];
  readonly firstChild = null;
  index = 0;
  public data: string;
  readonly parentNode: WorkElement;
  constructor(
    data: string,
    parentNode: WorkElement,
  ) {
    this.data = data;
    this.parentNode = parentNode;
  }
  get nodeValue(): string {
    return this.data;
  }
  get textContent(): string {
    return this.data;
  }
  get previousSibling(): WorkNode | null {
    return this.parentNode.childNodes[this.index - 1] ?? null;
  }
  get nextSibling(): WorkNode | null {
    return this.parentNode.childNodes[this.index + 1] ?? null;
  }
}

/**
 * An element, with the DOM properties turndown, the gfm plugin and Folio's rules read (as domino answers them), and
 * the marks turndown's `Node()` sets. Anything else a rule could ask for (`outerHTML`: a table kept as HTML) refuses.
 */
class WorkElement {
  readonly nodeType = 1 as const;
  childNodes: WorkNode[] = [];
  index = 0;
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace = NO_WHITESPACE;
  private text: string | undefined;
  private blank: boolean | undefined;
  private tableRows: WorkElement[] | undefined;
  /** The gfm plugin reads `style.textAlign` of cells without an `align`; plain markup has no styles. */
  readonly style = { textAlign: '' };
  readonly nodeName: string;
  private readonly source: LightElement;
  readonly parentNode: WorkElement | null;
  constructor(
    nodeName: string,
    source: LightElement,
    parentNode: WorkElement | null,
  ) {
    this.nodeName = nodeName;
    this.source = source;
    this.parentNode = parentNode;
  }
  getAttribute(name: string): string | null {
    return this.source.getAttribute(name);
  }
  get className(): string {
    return this.getAttribute('class') ?? '';
  }
  /** An input's type (only checkboxes are copied); other elements have none the rules would test. */
  get type(): string | undefined {
    return this.nodeName === 'INPUT' ? 'checkbox' : undefined;
  }
  get checked(): boolean {
    return this.getAttribute('checked') !== null;
  }
  get firstChild(): WorkNode | null {
    return this.childNodes[0] ?? null;
  }
  get previousSibling(): WorkNode | null {
    return this.parentNode?.childNodes[this.index - 1] ?? null;
  }
  get nextSibling(): WorkNode | null {
    return this.parentNode?.childNodes[this.index + 1] ?? null;
  }
  get children(): WorkElement[] {
    return this.childNodes.filter((n): n is WorkElement => n.nodeType === 1);
  }
  get lastElementChild(): WorkElement | null {
    const children = this.children;
    return children[children.length - 1] ?? null;
  }
  /** Read only once the tree is final (after collapsing), so it is worked out once. */
  get textContent(): string {
    if (this.text === undefined) {
      let text = '';
      for (const child of this.childNodes) text += child.textContent;
      this.text = text;
    }
    return this.text;
  }
  /** domino's `rows`: every `tr` below the table, in document order. */
  get rows(): WorkElement[] {
    return (this.tableRows ??= descendants(this, 'TR'));
  }
  querySelector(selector: string): WorkElement | null {
    if (selector !== 'caption') refuse();
    return descendants(this, 'CAPTION')[0] ?? null;
  }
  get outerHTML(): never {
    return refuse();
  }
  /**
   * turndown's `isBlank`: not void or meaningful when blank, whitespace-only text, no void or meaningful element
   * inside. Worked out from the children's answers, not by searching the subtree once per element name.
   */
  get blankTree(): boolean {
    if (this.blank === undefined) {
      this.blank =
        !VOID.has(this.nodeName) &&
        !MEANINGFUL_WHEN_BLANK.has(this.nodeName) &&
        this.childNodes.every((child) => (child.nodeType === 3 ? /^\s*$/.test(child.data) : child.blankTree));
    }
    return this.blank;
  }
}

const NO_WHITESPACE = { leading: '', trailing: '' };

function descendants(root: WorkElement, name: string, found: WorkElement[] = []): WorkElement[] {
  for (const child of root.childNodes) {
    if (child.nodeType !== 1) continue;
    if (child.nodeName === name) found.push(child);
    descendants(child, name, found);
  }
  return found;
}

/**
 * The working copy: the light tree as domino would parse its serialisation, after `dropImages` and `shapeTables`,
 * with turndown's whitespace collapsing applied on the way (see `Collapsing`).
 * - `dropImages`: images that would be removed are not copied.
 * - The round trip through markup: a `<pre>`'s leading newline is dropped by the parser, and the serialiser does
 *   not write it again, so a text starting with a newline in a `<pre>` loses it. In quirks mode (the light tree's)
 *   a `<table>` does not close an open `<p>`; in domino's parse it does: refused.
 * - `shapeTables`: refused where it would change anything (a layout table, a cell with blocks or line breaks).
 */
function copyCollapsed(body: LightElement, includeLinks: boolean, serialised: boolean): WorkElement {
  const copier = new Copier(includeLinks, serialised);
  const root = copier.element(body, null, false, false);
  // turndown's end of collapsing: the last text loses a trailing space, and goes if nothing is left.
  const last = copier.prevText;
  if (last) {
    last.data = last.data.replace(/ $/, '');
    if (!last.data) {
      const siblings = last.parentNode.childNodes;
      siblings.splice(last.index, 1);
      for (let i = last.index; i < siblings.length; i++) siblings[i]!.index = i;
    }
  }
  return root;
}

/**
 * turndown's `collapseWhitespace` (from collapse-whitespace), run while copying in the same document order: runs of
 * ASCII whitespace become one space; a space after a space, or at the start of a block, goes; a space before a
 * block or a `<br>` goes (the text node stays, even when empty); `<pre>` is left alone. turndown meets an element
 * with children twice (entering and leaving) and one without once; meeting it twice changes nothing then, so here
 * every element is met on the way in and on the way out.
 */
class Copier {
  prevText: WorkText | null = null;
  private keepLeadingWs = false;
  private readonly includeLinks: boolean;
  private readonly serialised: boolean;
  constructor(
    includeLinks: boolean,
    serialised: boolean,
  ) {
    this.includeLinks = includeLinks;
    this.serialised = serialised;
  }

  element(light: LightElement, parent: WorkElement | null, inCell: boolean, inParagraph: boolean): WorkElement {
    const name = nameOf(light);
    if (inCell && RESHAPED_IN_CELLS.has(light.localName)) refuse();
    if (name === 'TABLE' && inParagraph) refuse();
    const element = new WorkElement(name, light, parent);
    if (parent) this.meet(element);
    if (name === 'PRE') this.preformatted(light, element);
    else this.children(light, element, inCell || name === 'TD' || name === 'TH', inParagraph || name === 'P');
    if (parent) this.meet(element);
    if (name === 'TABLE' && isLayoutTable(element)) refuse();
    return element;
  }

  private children(light: LightElement, element: WorkElement, inCell: boolean, inParagraph: boolean): void {
    const children = element.childNodes;
    for (let child = light.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const text = this.collapsed(child.data);
        if (!text) continue;
        const node = new WorkText(text, element);
        this.prevText = node;
        node.index = children.length;
        children.push(node);
      } else if (child.localName !== 'img' || keepsImage(child, this.includeLinks)) {
        const index = children.length;
        children.push(this.element(child, element, inCell, inParagraph));
        children[index]!.index = index;
      }
    }
  }

  /** A text's data as turndown leaves it ('' for a text it removes). */
  private collapsed(data: string): string {
    let text = /[\r\n\t]| {2}/.test(data) ? data.replace(/[ \r\n\t]+/g, ' ') : data;
    if ((!this.prevText || this.prevText.data.endsWith(' ')) && !this.keepLeadingWs && text[0] === ' ') text = text.slice(1);
    return text;
  }

  /**
   * What turndown does not collapse: a `<pre>` and all in it, as it is, less the leading newline the round trip
   * through markup loses.
   */
  private preformatted(light: LightElement, element: WorkElement): void {
    for (let child = light.firstChild; child; child = child.nextSibling) {
      let node: WorkNode;
      if (child.nodeType === 3) {
        const lost = this.serialised && element.nodeName === 'PRE' && element.childNodes.length === 0 && child.data.startsWith('\n');
        const data = lost ? child.data.slice(1) : child.data;
        if (!data) continue;
        node = new WorkText(data, element);
      } else if (child.localName !== 'img' || keepsImage(child, this.includeLinks)) {
        const name = nameOf(child);
        // A table in a <pre> would still be reshaped by `shapeTables`, where nothing else here looks for it.
        if (name === 'TABLE') refuse();
        node = new WorkElement(name, child, element);
        this.preformatted(child, node);
      } else {
        continue;
      }
      node.index = element.childNodes.length;
      element.childNodes.push(node);
    }
  }

  private meet(node: WorkElement): void {
    if (BLOCK.has(node.nodeName) || node.nodeName === 'BR') {
      if (this.prevText) this.prevText.data = this.prevText.data.replace(/ $/, '');
      this.prevText = null;
      this.keepLeadingWs = false;
    } else if (VOID.has(node.nodeName)) {
      // (turndown names inline <pre> here too; PRE is a block in its list, so it never gets this far.)
      this.prevText = null;
      this.keepLeadingWs = true;
    } else if (this.prevText) {
      this.keepLeadingWs = false;
    }
  }
}

/**
 * An element's `nodeName`, refusing elements outside the known ones and the attributes turndown's rules read that
 * the copy does not answer for as domino would: a cell's `style` (its text-align), `role="checkbox"` (a task item),
 * an input's type other than the checkbox plain markup allows, a type of checkbox on anything else.
 */
function nameOf(light: LightElement): string {
  const name = KNOWN.get(light.localName) ?? refuse();
  if (light.getAttribute('role') === 'checkbox') refuse();
  if ((name === 'TD' || name === 'TH') && light.hasAttribute('style')) refuse();
  // (Other elements reflect `type` in domino too, `<source type=checkbox>` would be a task item there.)
  const type = light.getAttribute('type');
  if (name === 'INPUT' ? type !== 'checkbox' : type?.toLowerCase() === 'checkbox') refuse();
  return name;
}

/** `shapeTables`' layout table: one holding a table, or with at most one cell. */
function isLayoutTable(table: WorkElement): boolean {
  return descendants(table, 'TABLE').length > 0 || descendants(table, 'TD').length + descendants(table, 'TH').length <= 1;
}

/** The internals of turndown's `Rules` (turndown.cjs.js) that `forNode` reads. */
interface TurndownRules {
  array: TurndownService.Rule[];
  _keep: TurndownService.Rule[];
  _remove: TurndownService.Rule[];
  blankRule: TurndownService.Rule;
  defaultRule: TurndownService.Rule;
}

/**
 * turndown's `Rules.forNode` for one service, with the rules that can match an element name found once per name:
 * those whose filter names it, and those whose filter is a function (asked per node, in the same order), then the
 * keep and remove rules, then the default. Blank nodes take the blank rule first, as in turndown.
 */
class RuleBook {
  private readonly rules: TurndownRules;
  private readonly byName = new Map<string, TurndownService.Rule[]>();
  readonly service: TurndownService;
  constructor(service: TurndownService) {
    this.service = service;
    this.rules = service.rules as unknown as TurndownRules;
  }

  forNode(node: WorkElement): TurndownService.Rule {
    if (node.isBlank) return this.rules.blankRule;
    let candidates = this.byName.get(node.nodeName);
    if (!candidates) {
      const name = node.nodeName.toLowerCase();
      candidates = [...this.rules.array, ...this.rules._keep, ...this.rules._remove].filter(({ filter }) =>
        typeof filter === 'function' ? true : typeof filter === 'string' ? filter === name : (filter as string[]).includes(name),
      );
      this.byName.set(node.nodeName, candidates);
    }
    const html = node as unknown as HTMLElement;
    for (const rule of candidates) {
      if (typeof rule.filter !== 'function' || rule.filter.call(rule, html, this.service.options)) return rule;
    }
    return this.rules.defaultRule;
  }
}

const ruleBooks = new WeakMap<TurndownService, RuleBook>();

function rulesFor(service: TurndownService): RuleBook {
  let book = ruleBooks.get(service);
  if (!book) ruleBooks.set(service, (book = new RuleBook(service)));
  return book;
}

/** turndown's `process`: each child's replacement, joined as turndown joins them. */
function childrenMarkdown(parent: WorkElement, rules: RuleBook): string[] {
  const output: string[] = [];
  for (const node of parent.childNodes) {
    if (node.nodeType === 3) {
      join(output, parent.isCode ? node.data : escape(node.data, rules.service));
    } else {
      mark(node, parent);
      join(output, elementMarkdown(node, rules));
    }
  }
  return output;
}

/** turndown's `Node()`: the marks its rules and its driver read. */
function mark(node: WorkElement, parent: WorkElement): void {
  node.isBlock = BLOCK.has(node.nodeName);
  node.isCode = node.nodeName === 'CODE' || parent.isCode;
  node.isBlank = node.blankTree;
  node.flankingWhitespace = node.isBlock ? NO_WHITESPACE : flankingWhitespace(node);
}

/** turndown's `replacementForNode`. */
function elementMarkdown(node: WorkElement, rules: RuleBook): string {
  const rule = rules.forNode(node);
  let content = childrenMarkdown(node, rules).join('');
  const whitespace = node.flankingWhitespace;
  if (whitespace.leading || whitespace.trailing) content = content.trim();
  const replacement = rule.replacement!(content, node as unknown as HTMLElement, rules.service.options);
  return whitespace.leading + replacement + whitespace.trailing;
}

/**
 * The service's escape (turndown's Markdown escapes, then `escapeHtmlLookalikes`), skipped for text it provably
 * leaves alone: no character any of its patterns matches anywhere, and none of those it matches at the start.
 */
const ESCAPED = /[\\*`[\]_<]|^[-+=#~>\d]/;
function escape(text: string, service: TurndownService): string {
  return ESCAPED.test(text) ? service.escape(text) : text;
}

/** turndown's `flankingWhitespace` of an inline element. */
function flankingWhitespace(node: WorkElement): { leading: string; trailing: string } {
  const text = node.textContent;
  // The common case, without the regular expression: no whitespace at either edge.
  if (text === '' || (!/\s/.test(text[0]!) && !/\s/.test(text[text.length - 1]!))) return NO_WHITESPACE;
  const m = /^(([ \t\r\n]*)(\s*))(?:(?=\S)[\s\S]*\S)?((\s*?)([ \t\r\n]*))$/.exec(text)!;
  let leading = m[1]!;
  let trailing = m[4]!;
  if (m[2] && isFlankedByWhitespace(node.previousSibling, / $/)) leading = m[3]!;
  if (m[6] && isFlankedByWhitespace(node.nextSibling, /^ /)) trailing = m[5]!;
  return { leading, trailing };
}

function isFlankedByWhitespace(sibling: WorkNode | null, space: RegExp): boolean {
  if (!sibling) return false;
  if (sibling.nodeType === 3) return space.test(sibling.data);
  return !BLOCK.has(sibling.nodeName) && space.test(sibling.textContent);
}

/** turndown's `join`: at most two newlines between two pieces, the larger run of either side's. */
function join(output: string[], replacement: string): void {
  const tail = output.pop() ?? '';
  let end = tail.length;
  while (end > 0 && tail.charCodeAt(end - 1) === 10) end--;
  let start = 0;
  while (start < replacement.length && replacement.charCodeAt(start) === 10) start++;
  const separator = '\n\n'.substring(0, Math.max(tail.length - end, start));
  if (end > 0) output.push(end === tail.length ? tail : tail.slice(0, end));
  if (separator) output.push(separator);
  if (start < replacement.length) output.push(start === 0 ? replacement : replacement.slice(start));
}
