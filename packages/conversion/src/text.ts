const BLOCK = /<\/?(p|div|h[1-6]|ul|ol|table|thead|tbody|tr|blockquote|pre|section|article|header|footer|hr|br)\b[^>]*>/gi;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/**
 * Readable plain text from an HTML fragment: blocks become paragraphs, list items get bullets, table cells are
 * separated by tabs, and no markup remains.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<input\b[^>]*\bchecked\b[^>]*>\s*/gi, '[x] ')
    .replace(/<input\b[^>]*type="checkbox"[^>]*>\s*/gi, '[ ] ')
    .replace(/\s*<li\b[^>]*>\s*/gi, '\n• ')
    .replace(/\s*<\/li>/gi, '')
    .replace(/<\/tr>\s*<tr\b[^>]*>/gi, '\n')
    .replace(/<\/t[dh]>\s*<t[dh]\b[^>]*>/gi, '\t')
    .replace(BLOCK, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#?\w+);/g, (m, name: string) =>
      name in ENTITIES ? ENTITIES[name]! : name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : m,
    );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}
