import { endsAsSentence, isDateline } from './datelines.ts';
import { normalisedText, words } from './text-measure.ts';
import { elementsNamed, firstNamed, tagSet } from './elements.ts';

/**
 * The lines a page prints above the story inside the article's own container — the headline again, the byline,
 * the date — which the title and metadata already carry. Only the head is looked at: the blocks before the first
 * real paragraph.
 */
const MAX_HEAD_BLOCKS = 8;
const MEDIA = tagSet('img', 'picture', 'video', 'iframe', 'figure');
const TEXT_BLOCKS = tagSet('p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'time', 'address');
/** What a line of the head cannot hold: an element holding one of these, at any depth, is a container (a page's `<main>` too). */
const BLOCKS = tagSet('p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'table', 'blockquote', 'figure', 'section', 'article', 'header',
  'main', 'nav', 'aside', 'footer', 'form');
const PARAGRAPH_WORDS = 25;
const MAX_LINE_WORDS = 20;

/** "By Jane Doe", in a few languages; the name must start with a capital (no `i` flag: \p{Lu} would match any). */
const BYLINE = /^(?:[Bb]y|[Ww]ritten by|[Ww]ords by|[Pp]or|[Pp]ar|[Vv]on|[Dd]i|[Dd]oor|[Oo]leh|[Aa]v|[Aa]f)\s+\p{Lu}/u;

export function removeArticleHead(root: Element, titles: readonly string[]): void {
  const blocks = leafBlocks(root);
  const normalisedTitles = new Set(titles.map(comparable).filter((title) => title !== ''));
  for (const block of blocks.slice(0, MAX_HEAD_BLOCKS)) {
    const text = normalisedText(block);
    const n = words(text);
    if (n >= PARAGRAPH_WORDS) break;
    if (firstNamed(block, MEDIA)) continue;
    if (normalisedTitles.has(comparable(text)) || isByline(text, n) || isDateline(text, n)) block.remove();
  }
}

/** Blocks that hold text directly (paragraph-like), in document order. */
function leafBlocks(root: Element): Element[] {
  // A parent's text is read once, however many spans it holds (thousands side by side would make it quadratic).
  const parentTexts = new Map<Element, string>();
  const textOf = (parent: Element) => parentTexts.get(parent) ?? parentTexts.set(parent, normalisedText(parent)).get(parent)!;
  // An element holding a block anywhere below it (through spans, links, a site's custom elements) is a container, not
  // a line: each block marks its ancestors, up to one marked already.
  const containers = new Set<Element>();
  for (const block of elementsNamed(root, BLOCKS)) {
    for (let up = block.parentElement; up && up !== root && !containers.has(up); up = up.parentElement) containers.add(up);
  }
  return elementsNamed(root, TEXT_BLOCKS).filter((element) => {
    if (containers.has(element) || normalisedText(element) === '') return false;
    // A span or time counts only when it is a line of its own (not part of a paragraph's sentence): all its parent
    // holds, or set between blocks (a theme's title `<span>` above the story's first `<div>`).
    if (element.localName === 'span' || element.localName === 'time') {
      const parent = element.parentElement;
      return parent !== null && (textOf(parent) === normalisedText(element) || betweenBlocks(element));
    }
    return true;
  });
}

/** Whether an inline element has only blocks (or nothing) beside it, whitespace and comments aside. */
function betweenBlocks(element: Element): boolean {
  const beside = (step: (node: Node) => Node | null) => {
    let node = step(element);
    while (node && (node.nodeType === 8 || (node.nodeType === 3 && (node.textContent ?? '').trim() === ''))) node = step(node);
    return node === null || (node.nodeType === 1 && BLOCKS.has((node as Element).localName));
  };
  return beside((node) => node.previousSibling) && beside((node) => node.nextSibling);
}

/**
 * A line's letters and digits alone, lower-cased: a heading broken by a `<br>` reads run together in `textContent`
 * ("News ProductManagement"), and no separator tells two headlines apart.
 */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function isByline(text: string, n: number): boolean {
  return n <= MAX_LINE_WORDS && BYLINE.test(text) && !endsAsSentence(text);
}
