import { classWords } from './boilerplate.ts';
import { lowerCaseWords } from './text-measure.ts';

/**
 * A quote of what the document already said: a forum reply quoting the post above it ("Ann said: …"), a pull quote
 * repeating a sentence of the article. The reader has read it a moment before; in a thread the quotes can double
 * the text. A quote goes when most of its word sequences (runs of SHINGLE words) appeared earlier in the document.
 * A quote of something the document does not hold (a source, a citation, a post on another page) stays.
 */
const SHINGLE = 5;
/** Share of a quote's word sequences that must have appeared before it… */
const REPEATED_SHARE = 0.6;
/** …in a quote of at least this many words (a short quote is too little to tell, and costs the reader little). */
const MIN_QUOTE_WORDS = 8;

export function removeRepeatedQuotes(content: Element): void {
  const seen = new Set<string>();
  let recent: string[] = [];
  const read = (words: string[]) => {
    for (const word of words) {
      recent.push(word);
      if (recent.length > SHINGLE) recent.shift();
      if (recent.length === SHINGLE) seen.add(recent.join(' '));
    }
  };
  const walk = (parent: Node) => {
    for (let node = parent.firstChild; node; ) {
      const next = node.nextSibling;
      if (node.nodeType === 3) read(lowerCaseWords(node.textContent ?? ''));
      else if (node.nodeType === 1) {
        const element = node as Element;
        if (isQuote(element)) {
          const words = lowerCaseWords(element.textContent ?? '');
          // A quote that goes is not read: what follows it reads on from what preceded it, as the reader meets it.
          if (words.length >= MIN_QUOTE_WORDS && repeatedShare(words, seen) >= REPEATED_SHARE) element.remove();
          else {
            recent = [];
            read(words);
          }
        } else walk(element);
      }
      node = next;
    }
  };
  walk(content);
}

function isQuote(element: Element): boolean {
  return element.localName === 'blockquote' || classWords(element).includes('quote');
}

function repeatedShare(words: string[], seen: ReadonlySet<string>): number {
  let shingles = 0;
  let repeated = 0;
  for (let i = 0; i + SHINGLE <= words.length; i++) {
    shingles++;
    if (seen.has(words.slice(i, i + SHINGLE).join(' '))) repeated++;
  }
  return shingles === 0 ? 0 : repeated / shingles;
}
