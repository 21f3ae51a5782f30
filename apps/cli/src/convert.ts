import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ConvertAsyncParams, Folio, Output, SucceededJob } from '@folio/sdk';
import { UsageError } from './usage.ts';
import { waitShowingProgress } from './waiting.ts';

export const OUTPUTS: readonly Output[] = ['pdf', 'docx', 'markdown', 'html', 'text', 'json'];
const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdown', '.mkd', '.mkdn'];
const HTML_EXTENSIONS = ['.html', '.htm', '.xhtml'];

export type InputKind = 'url' | 'html' | 'markdown';

/**
 * What an argument is: a web address (the service fetches it), or a file sent as HTML or Markdown by its extension.
 * `as` settles a file whose extension says neither.
 */
export function inputKind(source: string, as?: string): InputKind {
  if (/^https?:\/\//i.test(source)) {
    if (as !== undefined) throw new UsageError('--as is for files; a web address is fetched as a page');
    return 'url';
  }
  if (as !== undefined) {
    if (as !== 'html' && as !== 'markdown') throw new UsageError('--as must be html or markdown');
    return as;
  }
  const extension = extname(source).toLowerCase();
  if (MARKDOWN_EXTENSIONS.includes(extension)) return 'markdown';
  if (HTML_EXTENSIONS.includes(extension)) return 'html';
  throw new UsageError(`cannot tell whether ${source} is HTML or Markdown: name it .html or .md, or say --as html|markdown`);
}

/**
 * Where a file output goes when --out is not given: beside the caller, named after the input (`notes.md` →
 * `notes.pdf`; `https://example.com/news/story.html` → `story.pdf`; a bare site → its host name). Text outputs
 * (markdown, html, text, json) go to stdout instead, so they can be piped.
 */
export function defaultOutFile(source: string, kind: InputKind, output: Output): string | undefined {
  if (output !== 'pdf' && output !== 'docx') return undefined;
  let stem: string;
  if (kind === 'url') {
    const url = new URL(source);
    const last = url.pathname.split('/').filter(Boolean).pop();
    stem = last ? decodeURIComponent(last).replace(/\.[a-z0-9]+$/i, '') : url.hostname;
  } else {
    stem = basename(source, extname(source));
  }
  // Only letters, digits, dot, dash and underscore; no '..', no leading dot: the name stays in this folder and visible.
  const safe = stem.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/\.{2,}/g, '-').replace(/-{2,}/g, '-').replace(/^[.-]+|[.-]+$/g, '') || 'document';
  return `${safe}.${output}`;
}

export interface ConvertCommand {
  source: string;
  output: Output;
  /** A file to write; undefined: the default file for pdf/docx, stdout for the rest. */
  out: string | undefined;
  as: string | undefined;
  /** Further conversion parameters (title, page_size, lang, css_url). */
  params: Partial<ConvertAsyncParams>;
}

/**
 * `folio convert`: starts a background job (no 27-second ceiling, and the id can be waited on again if this command
 * is interrupted), shows its progress, then saves the result: the file behind file_url for pdf and docx, the content
 * for markdown, html and text, the article for json.
 */
export async function convertDocument(folio: Folio, command: ConvertCommand, signal: AbortSignal): Promise<SucceededJob['result'] | undefined> {
  const kind = inputKind(command.source, command.as);
  if (!OUTPUTS.includes(command.output)) throw new UsageError(`--output must be one of ${OUTPUTS.join(', ')}`);
  const input = kind === 'url' ? { url: command.source } : { [kind]: await readInput(command.source) };
  const accepted = await folio.convertAsync({ ...command.params, ...input, output: command.output } as ConvertAsyncParams, { signal });
  const job = await waitShowingProgress(folio, accepted.job_id, signal, accepted);
  if (job.status === 'failed') return undefined;

  const out = command.out ?? defaultOutFile(command.source, kind, command.output);
  const result = job.result;
  let bytes: Uint8Array | string;
  if ('file_url' in result) {
    const file = await fetch(result.file_url, { signal });
    if (!file.ok) throw new Error(`could not download ${result.file_url}: ${file.status}`);
    bytes = new Uint8Array(await file.arrayBuffer());
  } else if ('content' in result) {
    bytes = result.content;
  } else {
    bytes = `${JSON.stringify(result.document, null, 2)}\n`;
  }
  if (out === undefined) {
    process.stdout.write(bytes);
  } else {
    await writeFile(out, bytes);
    process.stderr.write(`saved ${out} (${typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength} bytes)\n`);
  }
  return result;
}

async function readInput(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
