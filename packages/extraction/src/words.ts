/**
 * Words as a reader counts them: runs of letters and digits (apostrophes and hyphens inside a word keep it whole),
 * and each ideograph or kana of Chinese and Japanese, which are written without spaces, as one word.
 */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+(?:['’-](?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+)*/gu;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}
