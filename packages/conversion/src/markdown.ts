import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** GitHub-flavoured Markdown (tables, task lists, fenced code, autolinks, strikethrough) to an HTML fragment. */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown) as string;
}
