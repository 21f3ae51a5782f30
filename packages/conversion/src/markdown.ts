import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * Block markers (`>`, `-`, `*`, `+`, `1.`) a line may open before the rest of it is taken as text. marked recurses
 * once per level and overflows the stack somewhere under 2,000; real documents nest a handful.
 */
export const MAX_MARKDOWN_NESTING = 64;

/**
 * Columns of indentation a line keeps. Lists nested by indentation make marked re-read the nested text once per
 * level (3,000 levels ran out of memory); past this a line is as deep as it can get (about 128 list levels).
 */
export const MAX_MARKDOWN_INDENT = 256;
const DEEP_INDENT = new RegExp(`^[ \\t]{${MAX_MARKDOWN_INDENT / 4},}`, 'gm');

/** A run of block markers at the start of a line, each with the space after it. */
const MARKERS = /^(?:[ \t]{0,3}(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+))+/gm;
const MARKER = /[ \t]{0,3}(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/y;

/**
 * GitHub-flavoured Markdown (tables, task lists, fenced code, autolinks, strikethrough) to an HTML fragment.
 * Nesting beyond reason degrades instead of failing: a line's markers past MAX_MARKDOWN_NESTING and indentation past
 * MAX_MARKDOWN_INDENT are dropped, and a document that still overflows marked's stack becomes plain paragraphs.
 */
export function markdownToHtml(markdown: string): string {
  try {
    return marked.parse(withinMarkerNesting(withinIndent(markdown))) as string;
  } catch (error) {
    if (!(error instanceof RangeError) && !/Maximum call stack/.test((error as Error).message)) throw error;
    return paragraphsOf(markdown);
  }
}

/** Indentation beyond MAX_MARKDOWN_INDENT columns (a tab counts four) is cut to it. */
export function withinIndent(markdown: string): string {
  return markdown.replace(DEEP_INDENT, (run) => {
    let columns = 0;
    for (const c of run) columns += c === '\t' ? 4 - (columns % 4) : 1;
    return columns > MAX_MARKDOWN_INDENT ? ' '.repeat(MAX_MARKDOWN_INDENT) : run;
  });
}

/** Keeps at most MAX_MARKDOWN_NESTING block markers at the start of each line. */
export function withinMarkerNesting(markdown: string): string {
  return markdown.replace(MARKERS, (run) => {
    let kept = 0;
    let at = 0;
    for (MARKER.lastIndex = 0; kept < MAX_MARKDOWN_NESTING && MARKER.exec(run); kept++) at = MARKER.lastIndex;
    return kept < MAX_MARKDOWN_NESTING ? run : run.slice(0, at);
  });
}

/** The text as escaped paragraphs, split at blank lines. */
function paragraphsOf(markdown: string): string {
  const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return markdown
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escape(p)}</p>`)
    .join('\n');
}
