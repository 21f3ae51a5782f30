import type { ArticleMeta, ConversionOptions, InputKind, Output } from '@folio/events';
import { ConversionError } from './errors.ts';
import { markdownToHtml } from './markdown.ts';
import { articlePage } from './page.ts';
import { countWords, htmlToText } from './text.ts';

export interface ConversionRequest {
  input: { kind: InputKind; text: string };
  output: Output;
  options: ConversionOptions;
}

export type Conversion =
  | { kind: 'content'; output: 'html' | 'text' | 'markdown'; content: string; document: ArticleMeta }
  | { kind: 'json'; output: 'json'; content: string; document: ArticleMeta };

/** What this engine converts today; anything else is refused at the door with invalid_parameters. */
export const SUPPORTED = {
  inputs: ['markdown'] as readonly InputKind[],
  outputs: ['html', 'text', 'markdown', 'json'] as readonly Output[],
};

export function convert(request: ConversionRequest): Conversion {
  const { input, output, options } = request;
  if (!SUPPORTED.inputs.includes(input.kind)) {
    throw new ConversionError('invalid_parameters', `${input.kind} input is not supported yet`);
  }
  const fragment = markdownToHtml(input.text);
  const text = htmlToText(fragment);
  const title = options.title ?? '';
  const document: ArticleMeta = {
    title,
    url: null,
    site: null,
    author: null,
    date: null,
    excerpt: text.slice(0, 200) || null,
    image: null,
    word_count: countWords(text),
  };
  switch (output) {
    case 'html':
      return { kind: 'content', output, content: articlePage(title, fragment, options), document };
    case 'text':
      return { kind: 'content', output, content: title ? `${title}\n\n${text}` : text, document };
    case 'markdown':
      return { kind: 'content', output, content: title ? `# ${title}\n\n${input.text}` : input.text, document };
    case 'json':
      return {
        kind: 'json',
        output,
        content: JSON.stringify({ ...document, content_html: fragment, content_markdown: input.text }),
        document,
      };
    default:
      throw new ConversionError('invalid_parameters', `${output} output is not supported yet`);
  }
}
