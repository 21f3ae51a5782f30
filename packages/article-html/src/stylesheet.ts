/**
 * The service's own stylesheet for the article page, inlined in every page (the page must be self-contained) and
 * applied before the user's `css_url`, which can override any of it.
 *
 * - Fonts: Noto (installed with the renderer) first, covering Latin, Cyrillic and Greek, then the CJK, Arabic and
 *   Hebrew families so every script finds a face without a tofu box. The page's `lang` (on `<html>`) picks the
 *   regional CJK face and puts the Arabic or Hebrew face first; a `lang` on an element inside the content does not
 *   (the families are custom properties, resolved where they are declared), and such text falls back through the
 *   general stack, which still covers it.
 * - Layout uses logical properties (`margin-inline-start`, `border-inline-start`, `text-align: start`) so the same
 *   rules read right for `dir="rtl"`.
 * - Print: page size and margins belong to the PDF renderer; the page numbers ("3 / 7", centred in the bottom margin,
 *   left to right whatever the document's direction so they never read "7 / 3") are the page's own margin boxes, so a
 *   `css_url` can restyle them or turn them off (`@page { @bottom-center { content: none } }`). Figures, images,
 *   table rows and code lines are not split across pages, and headings are not left alone at the bottom of one.
 *   Those rules are `@media print` in the page a reader gets (html) and unconditional in the page the pdf renderer
 *   prints (`PRINTED_ARTICLE_STYLESHEET`).
 */
const STYLE = `
:root {
  --folio-text: #1b1b1b;
  --folio-muted: #5f6368;
  --folio-rule: #d0d7de;
  --folio-code-bg: #f4f5f7;
  --folio-link: #0b57d0;
  --folio-serif: "Noto Serif", "Noto Serif CJK SC", "Noto Naskh Arabic", "Noto Serif Hebrew", "Noto Sans Arabic",
    "Noto Sans Hebrew", "Noto Sans CJK SC", "DejaVu Serif", Georgia, "Times New Roman", serif, "Noto Color Emoji";
  --folio-sans: "Noto Sans", "Noto Sans CJK SC", "Noto Sans Arabic", "Noto Sans Hebrew", "DejaVu Sans", Arial,
    sans-serif, "Noto Color Emoji";
  --folio-mono: "Noto Sans Mono", "DejaVu Sans Mono", "Noto Sans Mono CJK SC", ui-monospace, Menlo, Consolas, monospace;
  color-scheme: light;
}
:lang(ja) { --folio-serif: "Noto Serif", "Noto Serif CJK JP", serif; --folio-sans: "Noto Sans", "Noto Sans CJK JP", sans-serif; }
:lang(ko) { --folio-serif: "Noto Serif", "Noto Serif CJK KR", serif; --folio-sans: "Noto Sans", "Noto Sans CJK KR", sans-serif; }
:lang(zh-TW), :lang(zh-Hant) { --folio-serif: "Noto Serif", "Noto Serif CJK TC", serif; --folio-sans: "Noto Sans", "Noto Sans CJK TC", sans-serif; }
:lang(zh-HK) { --folio-serif: "Noto Serif", "Noto Serif CJK HK", serif; --folio-sans: "Noto Sans", "Noto Sans CJK HK", sans-serif; }
:lang(ar), :lang(fa), :lang(ur) { --folio-serif: "Noto Naskh Arabic", "Noto Serif", serif; --folio-sans: "Noto Sans Arabic", "Noto Sans", sans-serif; }
:lang(he), :lang(yi) { --folio-serif: "Noto Serif Hebrew", "Noto Serif", serif; --folio-sans: "Noto Sans Hebrew", "Noto Sans", sans-serif; }

html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  color: var(--folio-text);
  background: #fff;
  font-family: var(--folio-serif);
  font-size: 12pt;
  line-height: 1.6;
  text-align: start;
  overflow-wrap: break-word;
  font-kerning: normal;
  text-rendering: optimizeLegibility;
}
.folio-article { max-width: 42em; margin-inline: auto; padding: 2em 1.25em; }

.folio-header { margin-block-end: 1.5em; }
.folio-header-image { display: block; max-width: 100%; max-height: 8em; height: auto; margin-block-end: 0.75em; }
.folio-header-text { margin: 0 0 0.75em; font-family: var(--folio-sans); font-size: 0.85em; color: var(--folio-muted); }
.folio-title { margin: 0 0 0.35em; font-size: 2em; line-height: 1.2; }
.folio-source { margin: 0; font-family: var(--folio-sans); font-size: 0.85em; color: var(--folio-muted); }
.folio-source > * + *::before { content: " · "; color: var(--folio-muted); }
.folio-source a { color: inherit; overflow-wrap: anywhere; }
.folio-header + .folio-content { border-block-start: 1px solid var(--folio-rule); padding-block-start: 1em; }

h1, h2, h3, h4, h5, h6 { font-family: var(--folio-sans); line-height: 1.25; margin: 1.6em 0 0.5em; }
h1 { font-size: 1.75em; } h2 { font-size: 1.45em; } h3 { font-size: 1.2em; } h4, h5, h6 { font-size: 1em; }
p, ul, ol, dl, blockquote, pre, table, figure, details { margin: 0 0 1em; }
/* A paragraph of many lines that print cuts in parts (conversion's printable-markup.ts): the parts follow on. */
p.folio-continues { margin-block-end: 0; }
ul, ol { padding-inline-start: 1.75em; }
li > ul, li > ol { margin-block-end: 0; }
li:has(> input[type="checkbox"]) { list-style: none; }
li > input[type="checkbox"] { margin-inline: -1.4em 0.4em; }
dt { font-weight: bold; }
dd { margin-inline-start: 1.5em; }
a { color: var(--folio-link); text-decoration: underline; text-underline-offset: 0.15em; }
hr { border: 0; border-block-start: 1px solid var(--folio-rule); margin: 2em 0; }
blockquote { margin-inline: 0; padding-inline-start: 1em; border-inline-start: 3px solid var(--folio-rule); color: #3c4043; }
mark { background: #fff3a3; }
sub, sup { line-height: 0; }

img, svg, video, canvas, picture { max-width: 100%; height: auto; }
img { vertical-align: middle; }
figure { margin-inline: 0; text-align: center; }
figure > img, figure > picture img { display: block; margin-inline: auto; }
figcaption { margin-block-start: 0.4em; font-family: var(--folio-sans); font-size: 0.85em; color: var(--folio-muted); text-align: center; }
math { font-size: 1.05em; }

code, kbd, samp, pre { font-family: var(--folio-mono); font-size: 0.88em; }
code, kbd, samp { background: var(--folio-code-bg); border-radius: 3px; padding: 0.1em 0.3em; }
pre {
  background: var(--folio-code-bg);
  border-radius: 4px;
  padding: 0.75em 1em;
  line-height: 1.45;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  tab-size: 4;
  direction: ltr;
  text-align: left;
  unicode-bidi: isolate;
}
pre code { background: none; padding: 0; font-size: inherit; }

table { border-collapse: collapse; max-width: 100%; font-size: 0.92em; }
caption { caption-side: top; padding-block-end: 0.4em; font-family: var(--folio-sans); color: var(--folio-muted); }
th, td { border: 1px solid var(--folio-rule); padding: 0.35em 0.6em; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f6f8fa; font-weight: bold; }
th:not([align]) { text-align: start; }
summary { font-weight: bold; }

@page {
  @bottom-center {
    content: counter(page) "\\2009/\\2009" counter(pages);
    direction: ltr;
    unicode-bidi: isolate;
    font-family: "Noto Sans", "DejaVu Sans", sans-serif;
    font-size: 9pt;
    color: #555;
  }
}
`.trim();

/** What a printed page changes: the print's own type size and width, and where pages may not break. */
const PRINT_RULES = `
body { font-size: 11pt; }
.folio-article { max-width: none; padding: 0; }
a { color: inherit; }
h1, h2, h3, h4, h5, h6 { break-after: avoid; page-break-after: avoid; break-inside: avoid; }
p, li, blockquote { orphans: 3; widows: 3; }
figure, img, svg, tr, thead, .folio-header { break-inside: avoid; page-break-inside: avoid; }
thead { display: table-header-group; }
pre { white-space: pre-wrap; }
`.trim();

/** The stylesheet of a page read on screen (the html output), which prints as the pdf does. */
export const ARTICLE_STYLESHEET = `${STYLE}\n\n@media print {\n${PRINT_RULES.replace(/^/gm, '  ')}\n}`;

/**
 * The stylesheet of the page the pdf renderer prints: the same rules, the print's unconditional. A page whose print
 * rules sit in `@media print` is laid out at load for the screen and again, with other sizes, when it prints; one
 * that loads with its printed styles prints from the layout it has. The PDF is byte for byte the same, and the
 * print takes a quarter less time (measured on 2026-12-02 on the benchmarks' 1,500-word article, one tab, medians
 * of 25 prints: 85 against 115 ms; docs/benchmarks.md, bench/pdf-service).
 */
export const PRINTED_ARTICLE_STYLESHEET = `${STYLE}\n\n${PRINT_RULES}`;
