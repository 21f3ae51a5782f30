import MarkdownIt, { type RendererRule, type StateCore } from 'markdown-it';

/**
 * Block markers (`>`, `-`, `*`, `+`, `1.`) a line may open before the rest of it is taken as text. Real documents nest
 * a handful; a line of thousands would nest a level per marker.
 */
export const MAX_MARKDOWN_NESTING = 64;

/**
 * Columns of indentation a line keeps: past this a line is as deep as it can get (about 128 list levels). Lists nested
 * by indentation are nested levels too.
 */
export const MAX_MARKDOWN_INDENT = 256;
const DEEP_INDENT = new RegExp(`^[ \\t]{${MAX_MARKDOWN_INDENT / 4},}`, 'gm');

/** A run of block markers at the start of a line, each with the space after it. */
const MARKERS = /^(?:[ \t]{0,3}(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+))+/gm;
const MARKER = /[ \t]{0,3}(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/y;

/**
 * markdown-it's own bound on nesting, for blocks above what the two limits above let through (a list level is two:
 * the list and its item): past it markdown-it drops the rest of a block, where the limits above flatten instead, so
 * nothing is lost. Inline content (emphasis in links in emphasis…) keeps markdown-it's default: past it the rest is
 * kept as text, and the time its link and emphasis rules take grows with the bound (`![[]()` a megabyte long: 1.4 s
 * at 100 levels, 5.7 s at 484).
 */
const BLOCK_NESTING = 2 * MAX_MARKDOWN_NESTING + MAX_MARKDOWN_INDENT + 100;
const INLINE_NESTING = 100;

/**
 * The parser. markdown-it rather than marked: marked's inline rules take quadratic time and worse on runs of
 * delimiters, so a few kilobytes of Markdown held the renderer's own thread, and every sync call behind it, for
 * minutes (30 KB of `_a*` took 12 s in marked 18, 20 KB of `[a](` seven minutes in marked 16), and its recursion
 * overflowed the stack. markdown-it keeps CommonMark's pathological inputs linear (`markdown.unit.test.ts`) and
 * bounds its own nesting.
 *
 * GitHub-flavoured: tables and strikethrough are markdown-it's own, autolinks are linkify's (trimmed to GFM's
 * below), task lists are `taskItems`. Raw HTML passes through, as GFM allows; the sanitiser judges it afterwards.
 */
const markdown = new MarkdownIt('default', { html: true, linkify: true, breaks: false, typographer: false, maxNesting: BLOCK_NESTING });
markdown.core.ruler.before('block', 'block-nesting', (state) => void (state.md.options.maxNesting = BLOCK_NESTING));
markdown.core.ruler.before('inline', 'inline-nesting', (state) => void (state.md.options.maxNesting = INLINE_NESTING));
markdown.core.ruler.after('inline', 'task-items', taskItems);
markdown.renderer.rules.th_open = alignedCell;
markdown.renderer.rules.td_open = alignedCell;
// Addresses are the sanitiser's to judge (url-policy.ts), as for supplied HTML: markdown-it's own check would print
// a `javascript:` link, or a data: image of a type it does not know, as its Markdown source instead.
markdown.validateLink = () => true;
// GFM's strikethrough is `<del>` (markdown-it writes `<s>`).
markdown.renderer.rules.s_open = () => '<del>';
markdown.renderer.rules.s_close = () => '</del>';

// GFM autolinks a bare address only when it starts with `www.`: linkify is asked for addresses without a scheme, and
// those not starting so (`README.md`, a file name whose extension is a country's domain) are dropped.
markdown.linkify.set({ fuzzyLink: true });
const linkifyMatch = markdown.linkify.match.bind(markdown.linkify);
markdown.linkify.match = (text: string) => linkifyMatch(text)?.filter((link) => link.schema !== '' || /^www\./i.test(link.raw)) ?? null;

/** GitHub-flavoured Markdown (tables, task lists, fenced code, autolinks, strikethrough) to an HTML fragment. */
export function markdownToHtml(source: string): string {
  return markdown.render(withinMarkerNesting(withinIndent(source)));
}

/** Indentation beyond MAX_MARKDOWN_INDENT columns (a tab counts four) is cut to it. */
export function withinIndent(source: string): string {
  return source.replace(DEEP_INDENT, (run) => {
    let columns = 0;
    for (const c of run) columns += c === '\t' ? 4 - (columns % 4) : 1;
    return columns > MAX_MARKDOWN_INDENT ? ' '.repeat(MAX_MARKDOWN_INDENT) : run;
  });
}

/** Keeps at most MAX_MARKDOWN_NESTING block markers at the start of each line. */
export function withinMarkerNesting(source: string): string {
  return source.replace(MARKERS, (run) => {
    let kept = 0;
    let at = 0;
    for (MARKER.lastIndex = 0; kept < MAX_MARKDOWN_NESTING && MARKER.exec(run); kept++) at = MARKER.lastIndex;
    return kept < MAX_MARKDOWN_NESTING ? run : run.slice(0, at);
  });
}

const TASK = /^\[([ xX])\][ \t]/;

/**
 * A list item whose text opens with `[ ]` or `[x]` is a task: the marker becomes a disabled checkbox, written the
 * way GFM writes it (`<input checked="" disabled="" type="checkbox">`), which the sanitiser keeps as it is.
 */
function taskItems(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const task = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !task) continue;
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input ${task[1] === ' ' ? '' : 'checked="" '}disabled="" type="checkbox"> `;
    first.content = first.content.slice(task[0].length);
    inline.children!.unshift(box);
  }
}

/** A table cell's alignment as the `align` attribute GFM writes, not markdown-it's `style` (no inline styles pass). */
function alignedCell(...[tokens, idx, options, , self]: Parameters<RendererRule>): string {
  const token = tokens[idx]!;
  const style = token.attrGet('style');
  const align = typeof style === 'string' && /^text-align:(left|center|right)$/.exec(style);
  if (align) {
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    token.attrSet('align', align[1]!);
  }
  return self.renderToken(tokens, idx, options);
}
