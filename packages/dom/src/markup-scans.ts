/**
 * The first match of `pattern` (global) at or after a position, for positions asked in increasing order: an answer
 * serves every position up to it, so the text is read once however many times it is asked.
 */
export function nextMatch(text: string, pattern: RegExp): (from: number) => { index: number; end: number } | null {
  let found: { index: number; end: number } | null | undefined;
  return (from) => {
    if (found === undefined || (found !== null && found.index < from)) {
      pattern.lastIndex = from;
      const match = pattern.exec(text);
      found = match ? { index: match.index, end: match.index + match[0].length } : null;
    }
    return found;
  };
}
