/// <reference path="./turndown-plugin-gfm.d.ts" />
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import {
  bareCodeBlockRule,
  boldLineRule,
  escapeHtmlLookalikes,
  imageRule,
  linkRule,
  listItemRule,
  mathRule,
} from './markdown-rules.ts';

/**
 * Turndown as Folio configures it (CommonMark rules, the gfm plugin, our rules on top) and the tidying of its output:
 * the definition of Folio's Markdown, whichever tree it is run over.
 */

/** Elements with nothing to say in Markdown: their text would only be noise (an SVG chart's labels, say). */
const DROPPED_NAMES = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'iframe', 'object', 'embed', 'svg',
  'canvas', 'audio', 'video', 'button', 'select', 'textarea', 'form', 'dialog',
]);
const DROPPED: TurndownService.Filter = (node) => DROPPED_NAMES.has(node.nodeName.toLowerCase());

function createService(includeLinks: boolean): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
    // Nothing is ever kept as HTML: what turndown cannot express keeps its text.
    keepReplacement: (content, node) => ((node as { isBlock?: boolean }).isBlock ? `\n\n${content}\n\n` : content),
  });
  service.use(gfm);
  service.remove(DROPPED);
  service.addRule('folioLink', linkRule(includeLinks));
  service.addRule('folioImage', imageRule);
  service.addRule('folioBoldLine', boldLineRule);
  service.addRule('folioListItem', listItemRule);
  service.addRule('folioBareCodeBlock', bareCodeBlockRule);
  service.addRule('folioMath', mathRule);
  service.escape = escapeHtmlLookalikes(service.escape.bind(service));
  return service;
}

const services = new Map<boolean, TurndownService>();

/** The turndown service for links kept or not, made once per thread. */
export function serviceFor(includeLinks: boolean): TurndownService {
  let service = services.get(includeLinks);
  if (!service) services.set(includeLinks, (service = createService(includeLinks)));
  return service;
}

/**
 * The fence a line opens a code block with, if it does: after any list markers and quote markers (a code block that
 * starts a list item opens on the item's own line), backticks or tildes, three or more; a backtick fence's info string
 * holds no backtick (CommonMark), so "- ```x```" is inline code.
 */
function fenceOpening(line: string): RegExpExecArray | null {
  const opener = /^(?:\s*(?:[-+*]|\d{1,9}[.)])\s+|\s*>\s?)*\s*(`{3,}|~{3,})(.*)$/.exec(line);
  return opener && !(opener[1]![0] === '`' && opener[2]!.includes('`')) ? opener : null;
}

/**
 * Tidies turndown's output outside code blocks: no trailing spaces except a hard line break's two, at most one blank
 * line in a row. Inside fenced code every character is the author's.
 */
export function tidy(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const opener = fenceOpening(line);
    if (fence === null) {
      if (opener) fence = opener[1]!;
      // (trimEnd removes what `\s+$` matches.)
      const end = line.trimEnd();
      const trimmed = end !== '' && line.endsWith('  ') ? `${end}  ` : end;
      if (trimmed === '' && out.length > 0 && out[out.length - 1] === '') continue;
      out.push(trimmed);
    } else {
      if (opener && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = null;
      out.push(line);
    }
  }
  return out.join('\n').trim();
}
