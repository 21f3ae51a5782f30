import { serialize, type DefaultTreeAdapterMap } from 'parse5';
import { parseBodyTree } from './light.ts';

/**
 * A code block's lines as text. Inside a `<pre>` a line may be markup rather than a newline: a `<br>`, a block (a
 * CodeMirror line is a `<div>`, and Readability turns such a `<div>` into a `<p>`), or, on a page, an inline element
 * its stylesheet shows as a line (Gatsby's `<span class="gatsby-highlight-code-line">`, a highlighter's
 * `<span class="line">`). A browser showing the page sets them apart; Folio's outputs read a `<pre>` as the text it
 * holds (Markdown's fence, the text output, the docx's code paragraph), and the page's stylesheet is gone from all of
 * them. So "// a comment" and "const count = 0;" on two lines came out as one, in every output: the code changed.
 *
 * Here each such line becomes text: a newline goes where a browser would start a new line, a `<br>` becomes a
 * newline, and a block is unwrapped, its contents staying in place. Inline markup (a highlighter's token spans)
 * stays. A newline already there is never doubled: a text that starts with one is taken as the break (Shiki writes
 * `<span class="line">` runs separated by newlines). A line that is empty but for its `<br>` stays an empty line.
 * A table inside a `<pre>` (line-number gutters) is left as it is.
 *
 * An inline element is taken as a line by its class (`looksLikeCodeLine`), in supplied HTML as on a page: such markup
 * is most often a page's, copied with its classes and without its stylesheet.
 *
 * Written once over either tree that holds such markup: jsdom's, where the extraction reads a page
 * (`codeLinesAsText`), and parse5's, for supplied markup already sanitised (`markupWithCodeLinesAsText`).
 */

/** In a document (a page being extracted): returns whether anything changed. */
export function codeLinesAsText(root: ParentNode): boolean {
  return flattenCodeBlocks(root as unknown as Node, DOM_TREE);
}

/**
 * In markup: the markup with its code blocks' lines as text, or null when none needed it. Parsed by parse5 alone, and
 * only when its tags say a `<pre>` may hold such lines (`mayHoldCodeLines`).
 */
export function markupWithCodeLinesAsText(html: string): string | null {
  if (!mayHoldCodeLines(html)) return null;
  const body = parseBodyTree(html);
  return body && flattenCodeBlocks(body as Parse5Node, PARSE5_TREE) ? serialize(body) : null;
}

/** What the walk needs of a tree; each tree's own way to ask it. */
interface Tree<N> {
  /** The outermost `<pre>`s under `root` (a `<pre>` inside one is part of it). */
  codeBlocks(root: N): N[];
  childrenOf(node: N): N[];
  /** A text node's data; null for anything else. */
  textOf(node: N): string | null;
  /** An element's local name; null for anything else. */
  nameOf(node: N): string | null;
  classOf(node: N): string | null;
  setText(node: N, data: string): void;
  newText(data: string, near: N): N;
  /** Makes `children` the node's children, in order; each leaves wherever it was. */
  setChildren(node: N, children: N[]): void;
}

/**
 * jsdom finds a child's index (for live ranges) at every insertion before a sibling and every removal, walking the
 * siblings before it: changing a long run of children in place costs the square of its length (10,000 `<br>`s
 * replaced one by one took 33 s, measured). So children are set by taking each from the front of its parent and
 * appending it, which is constant work a node.
 */
const DOM_TREE: Tree<Node> = {
  // jsdom walks its own tree for this, without a wrapper object a node (a walk by `nextElementSibling` took 1.7 ms a
  // page, measured on the article set).
  codeBlocks: (root) => [...(root as Element).getElementsByTagName('pre')].filter((pre) => !pre.parentElement?.closest('pre')),
  childrenOf(node) {
    const children: Node[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    return children;
  },
  textOf: (node) => (node.nodeType === 3 ? (node as Text).data : null),
  nameOf: (node) => (node.nodeType === 1 ? (node as Element).localName : null),
  classOf: (node) => (node as Element).getAttribute('class'),
  setText(node, data) {
    (node as Text).data = data;
  },
  newText: (data, near) => near.ownerDocument!.createTextNode(data),
  setChildren(node, children) {
    while (node.firstChild) node.removeChild(node.firstChild);
    for (const child of children) node.appendChild(child);
  },
};

type Parse5Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['element'];
type Parse5Parent = Parse5Node & { childNodes: Parse5Node[] };

const PARSE5_TREE: Tree<Parse5Node> = {
  codeBlocks(root) {
    const found: Parse5Node[] = [];
    const visit = (node: Parse5Node) => {
      for (const child of (node as Partial<Parse5Parent>).childNodes ?? []) {
        if (child.nodeName === 'pre') found.push(child);
        else visit(child);
      }
    };
    visit(root);
    return found;
  },
  childrenOf: (node) => [...((node as Partial<Parse5Parent>).childNodes ?? [])],
  textOf: (node) => (node.nodeName === '#text' ? (node as DefaultTreeAdapterMap['textNode']).value : null),
  nameOf: (node) => ('tagName' in node ? node.tagName : null),
  classOf: (node) => (node as DefaultTreeAdapterMap['element']).attrs.find((a) => a.name === 'class')?.value ?? null,
  setText(node, data) {
    (node as DefaultTreeAdapterMap['textNode']).value = data;
  },
  newText: (data) => ({ nodeName: '#text', value: data, parentNode: null }) as DefaultTreeAdapterMap['textNode'],
  setChildren(node, children) {
    (node as Parse5Parent).childNodes = children;
    for (const child of children) child.parentNode = node as DefaultTreeAdapterMap['element'];
  },
};

/** A `<pre>` that holds no line of markup comes through unchanged: its children are gathered as they are, and not set. */
function flattenCodeBlocks<N>(root: N, tree: Tree<N>): boolean {
  let changed = false;
  for (const pre of tree.codeBlocks(root)) changed = new CodeBlock(tree).flatten(pre) || changed;
  return changed;
}

/** A class that names a line: `line`, or one ending in `-line`/`_line` (`code-line`, `cm-line`, `token-line`…). */
function looksLikeCodeLine(names: string | null): boolean {
  return names !== null && /(?:^|[\s_-])line(?:\s|$)/i.test(names);
}

/** Elements a browser lays out as blocks inside a `<pre>`, each on lines of its own. */
const BLOCKS = new Set([
  'div', 'p', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header',
  'footer', 'main', 'aside', 'nav', 'blockquote', 'figure', 'figcaption', 'address', 'center', 'pre',
]);

/**
 * The walk over one `<pre>`: where the text written so far stands, and whether a line must start before more. Each
 * element's new children are gathered first and set once (`Tree.setChildren`): a block's go to its parent's instead.
 */
class CodeBlock<N> {
  /** Whether the text so far is empty or ends with a newline. */
  private atLineStart = true;
  /** A block or line ended (or began after text): the next text starts on a new line. */
  private breakOwed = false;
  private changed = false;
  private readonly tree: Tree<N>;

  constructor(tree: Tree<N>) {
    this.tree = tree;
  }

  flatten(pre: N): boolean {
    const children: N[] = [];
    this.gather(pre, children);
    this.setChildren(pre, children);
    return this.changed;
  }

  /** Sets a node's children where they changed (a jsdom node's are otherwise moved for nothing). */
  private setChildren(node: N, children: N[]): void {
    const before = this.tree.childrenOf(node);
    if (before.length === children.length && before.every((child, i) => child === children[i])) return;
    this.tree.setChildren(node, children);
    this.changed = true;
  }

  /** Puts `node`'s content, its lines made text, at the end of `into`. */
  private gather(node: N, into: N[]): void {
    const { tree } = this;
    for (const child of tree.childrenOf(node)) {
      const data = tree.textOf(child);
      const name = tree.nameOf(child);
      if (data !== null) this.text(child, data);
      if (name === null || name === 'table') {
        // Text, a comment, or a table (a gutter of line numbers beside the code, left as it was).
        into.push(child);
      } else if (name === 'br') {
        // A <br> is a line of its own: after a block that ended a line with text, it is an empty line.
        if (this.breakOwed && !this.atLineStart) into.push(tree.newText('\n', child));
        into.push(tree.newText('\n', child));
        this.breakOwed = false;
        this.atLineStart = true;
      } else {
        const block = BLOCKS.has(name);
        const line = block || looksLikeCodeLine(tree.classOf(child));
        if (line && !this.atLineStart) this.breakOwed = true;
        if (block) {
          // Unwrapped: its content goes where it stood.
          this.gather(child, into);
        } else {
          const inner: N[] = [];
          this.gather(child, inner);
          this.setChildren(child, inner);
          into.push(child);
        }
        if (line && !this.atLineStart) this.breakOwed = true;
      }
    }
  }

  private text(node: N, data: string): void {
    if (data.length === 0) return;
    if (this.breakOwed) {
      this.breakOwed = false;
      if (!this.atLineStart && data[0] !== '\n') {
        data = `\n${data}`;
        this.tree.setText(node, data);
        this.changed = true;
      }
    }
    this.atLineStart = data.endsWith('\n');
  }
}

const PRE_START = /<pre[\s>]/gi;
const LINE_MARKUP = new RegExp(`<(?:br|${[...BLOCKS].join('|')})[\\s/>]|\\sclass\\s*=\\s*["']?[^"'>]*line`, 'i');

/**
 * Whether serialised markup may hold a `<pre>` with a `<br>`, a block or a line's class inside, read from its tags
 * alone: so that markup is parsed again only when it may change something (most code blocks hold text and inline
 * spans). Each `<pre>` is read up to the next `</pre>`.
 */
export function mayHoldCodeLines(html: string): boolean {
  PRE_START.lastIndex = 0;
  for (let start = PRE_START.exec(html); start; start = PRE_START.exec(html)) {
    const from = start.index + start[0].length;
    const end = html.indexOf('</pre', from);
    if (LINE_MARKUP.test(html.slice(from, end === -1 ? html.length : end))) return true;
    if (end === -1) return false;
    PRE_START.lastIndex = end;
  }
  return false;
}
