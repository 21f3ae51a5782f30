import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords } from './words.ts';

/** The definition countWords implements by scanning. */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+(?:['’-](?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+)*/gu;
const byDefinition = (text: string) => text.match(WORD)?.length ?? 0;

/** Characters from every class the scanner tells apart, and the ones between them. */
const PIECES = [
  'a', 'Z', '7', 'é', 'ß', 'ж', 'λ', 'ا', '٣', 'ก', '\u0301', '\u093F', // letters, digits, marks of several scripts
  '漢', '字', 'ひ', 'カ', '𠀋', // ideographs and kana (one astral)
  "'", '’', '-', '‘', '–', // joiners and their look-alikes
  ' ', '\n', '\t', '\u00A0', '.', ',', '!', '_', '@', '😀', '\u200B', // everything else
];

describe('countWords', () => {
  it('counts as the definition does', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(countWords(text)).toBe(byDefinition(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('counts words the way a reader does', () => {
    expect(countWords("It's a well-known state-of-the-art o’clock thing -- isn't it?")).toBe(8);
    expect(countWords('東京に行きます')).toBe(7);
    expect(countWords('Это тест, не правда ли')).toBe(5);
    expect(countWords('')).toBe(0);
    expect(countWords(" - ' ’ ")).toBe(0);
  });
});
