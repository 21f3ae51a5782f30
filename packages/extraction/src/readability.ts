import { Readability } from '@mozilla/readability';
import { elementsNamed, tagSet } from './elements.ts';

/**
 * Readability as published, with the same answers from cheaper questions to jsdom:
 * - It collects elements by tag name with `querySelectorAll` and a selector list ("h1,h2", "img,picture,figure"…)
 *   hundreds of times a page, which made that a seventh of extraction's time: a walk over element children returns
 *   the same elements (descendants, document order).
 * - Its walk over the page asks every element it passes for its whole `textContent` (is it a byline? is it empty?),
 *   so the page's text is built again for each of its wrappers, and reads every element's inline style through
 *   jsdom's CSS object: together 5 % of extraction's time over WCXB's pages (measured). The overrides below ask the
 *   cheap part of each question first, and stop reading text at its first visible character.
 */
export class FastReadability extends Readability<Element> {
  private static readonly names = new Map<string, ReadonlySet<string>>();
  private static readonly byline = /byline|author|dateline|writtenby|p-author/i;

  /**
   * Turns off Readability's conditional cleaning of the content it chose (`FLAG_CLEAN_CONDITIONALLY`: it drops lists,
   * divisions and tables that read like asides — mostly links, more images than paragraphs, a class such as `media`
   * or `meta`), as Readability itself does on a retry when what it kept is too short.
   */
  keepingAsides(): this {
    const flags = this as unknown as { FLAG_CLEAN_CONDITIONALLY: number; _removeFlag(flag: number): void };
    flags._removeFlag(flags.FLAG_CLEAN_CONDITIONALLY);
    return this;
  }

  _getAllNodesWithTag(node: ParentNode, tagNames: string[]): Element[] {
    const key = tagNames.join(',');
    let names = FastReadability.names.get(key);
    if (!names) FastReadability.names.set(key, (names = tagSet(...tagNames.map((t) => t.toLowerCase()))));
    return elementsNamed(node, names);
  }

  /** Readability's own test, its text measured only once the markup has said "author". */
  _isValidByline(node: Element, matchString: string): boolean {
    const named = node.getAttribute('rel') === 'author' || !!node.getAttribute('itemprop')?.includes('author') || FastReadability.byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  }

  /** No visible text, and no child elements but line breaks and rules (which may lie deeper, as Readability counts them). */
  _isElementWithoutContent(node: Element): boolean {
    if (node.nodeType !== 1 || hasVisibleText(node)) return false;
    let children = 0;
    for (let child = node.firstElementChild; child; child = child.nextElementSibling) children++;
    return children === 0 || children === elementsNamed(node, BREAKS).length;
  }

  /** An element without a `style` attribute has no inline display or visibility to read. */
  _isProbablyVisible(node: Element): boolean {
    const style = node.hasAttribute('style') ? (node as HTMLElement).style : undefined;
    return (
      (!style || (style.display !== 'none' && style.visibility !== 'hidden')) &&
      !node.hasAttribute('hidden') &&
      (node.getAttribute('aria-hidden') !== 'true' || !!node.className?.includes?.('fallback-image'))
    );
  }
}

const BREAKS = tagSet('br', 'hr');

/** Whether any text under `node` holds more than whitespace (`textContent.trim()` is not empty), read until it does. */
function hasVisibleText(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 || child.nodeType === 4) {
      if (/\S/.test((child as CharacterData).data)) return true;
    } else if (child.nodeType === 1 && child.firstChild && hasVisibleText(child)) return true;
  }
  return false;
}
