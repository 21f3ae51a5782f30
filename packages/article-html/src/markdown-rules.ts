import type TurndownService from 'turndown';
import { safeUrl } from './url-policy.ts';

/**
 * The turndown rules Folio adds on top of turndown's CommonMark rules and the gfm plugin. Rules added later win in
 * turndown, so these are installed after the plugin.
 */

/** Markdown link destinations: parentheses escaped, spaces and angle brackets percent-encoded. */
function destination(url: string): string {
  return url.replace(/[()]/g, '\\$&').replace(/[\s<>]/g, (c) => encodeURIComponent(c));
}

function titlePart(node: HTMLElement): string {
  const title = (node.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim();
  return title ? ` "${title.replace(/["\\]/g, '\\$&')}"` : '';
}

function altText(node: HTMLElement): string {
  return (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
}

/**
 * Links: with `includeLinks` a link keeps its address (when it is a safe, non-fragment one); without, only its words.
 * A link wrapped around blocks (a heading, a paragraph) keeps only its words: Markdown links are inline.
 */
export function linkRule(includeLinks: boolean): TurndownService.Rule {
  return {
    filter: 'a',
    replacement(content, node) {
      if (!includeLinks || !content.trim() || content.trim().includes('\n')) return content;
      const href = safeUrl(node.getAttribute('href') ?? '', 'link', null);
      if (href === null || href.startsWith('#')) return content;
      return `[${content}](${destination(href)}${titlePart(node)})`;
    },
  };
}

/**
 * Images that are to leave no trace. Removed from the tree before turndown runs (rather than rendered as nothing), so
 * that turndown's whitespace handling closes the gap: no stray leading or doubled spaces where they stood.
 * Without `includeLinks` every image goes (an image without an address shows nothing, and its alt text mostly
 * repeats the caption next to it); with it, only those whose address is unsafe.
 */
export function dropImages(root: Element, includeLinks: boolean): void {
  for (const image of Array.from(root.querySelectorAll('img'))) if (!keepsImage(image, includeLinks)) image.remove();
}

/** Whether `dropImages` leaves an image: with `includeLinks`, one whose address is safe. */
export function keepsImage(image: Pick<Element, 'getAttribute'>, includeLinks: boolean): boolean {
  return includeLinks && safeUrl(image.getAttribute('src') ?? '', 'image', null) !== null;
}

/** An image with its address (only safe ones are left by `dropImages`). */
export const imageRule: TurndownService.Rule = {
  filter: 'img',
  replacement(_content, node) {
    const src = safeUrl(node.getAttribute('src') ?? '', 'image', null);
    return src === null ? '' : `![${altText(node)}](${destination(src)}${titlePart(node)})`;
  },
};

/**
 * A definition list's term, and a `<summary>` (the heading of its `<details>`): in bold, on a line of their own above
 * what they introduce.
 */
export const boldLineRule: TurndownService.Rule = {
  filter: ['dt', 'summary'],
  replacement: (content) => (content.trim() ? `\n\n**${content.trim()}**\n\n` : ''),
};

/**
 * List items with the tightest markers GFM allows (`- `, `3. `) instead of turndown's `-   `, content indented to the
 * marker's width so nested lists and paragraphs stay inside their item; a task checkbox is followed by one space.
 */
export const listItemRule: TurndownService.Rule = {
  filter: 'li',
  replacement(content, node) {
    const parent = node.parentNode as Element | null;
    let marker = '- ';
    if (parent?.nodeName === 'OL') {
      const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
      marker = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
    }
    const endsWithParagraph = /\n$/.test(content);
    // The trailing run is found where it starts (`(?<!\n)`): a pattern tried from each of a run's newlines reads the
    // rest of the run each time, and a code block of blank lines in a list item took seconds.
    const body = content.replace(/^\n+|(?<!\n)\n+$/g, '').replace(/^(\[[ x]\]) +/, '$1 ') + (endsWithParagraph ? '\n' : '');
    return marker + body.replace(/\n/g, `\n${' '.repeat(marker.length)}`) + (node.nextSibling ? '\n' : '');
  },
};

/** `<pre>` without a `<code>` inside is still code: fence it, with a fence longer than any backtick run inside. */
export const bareCodeBlockRule: TurndownService.Rule = {
  filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
  replacement(_content, node) {
    const code = (node.textContent ?? '').replace(/\n$/, '');
    const longest = Math.max(2, ...(code.match(/^`{3,}/gm) ?? []).map((run) => run.length));
    const fence = '`'.repeat(longest + 1);
    return `\n\n${fence}\n${code}\n${fence}\n\n`;
  },
};

/** A code span whose delimiter is longer than any backtick run inside it. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const delimiter = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}

/** MathML reads as its `alttext` (usually the LaTeX source) when it has one, otherwise as its text. */
export const mathRule: TurndownService.Rule = {
  filter: (node) => node.nodeName.toLowerCase() === 'math',
  replacement(content, node) {
    const alt = (node.getAttribute('alttext') ?? '').replace(/\s+/g, ' ').trim();
    return alt ? inlineCode(alt) : content;
  },
};

/**
 * Text that would read as raw HTML in Markdown (`<div>`, `</p>`, `<!--`) is escaped too: article text about HTML must
 * not turn into markup when the Markdown is rendered.
 */
export function escapeHtmlLookalikes(escape: (text: string) => string): (text: string) => string {
  return (text) => escape(text).replace(/<(?=[a-z/!?])/gi, '\\<');
}
