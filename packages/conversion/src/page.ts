import type { ConversionOptions } from '@folio/events';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A self-contained article page around a content fragment: title, header line, content. No script anywhere. */
export function articlePage(title: string, contentHtml: string, options: ConversionOptions): string {
  const lang = options.lang ? ` lang="${escape(options.lang)}"` : '';
  const dir = options.dir === 'rtl' || options.dir === 'ltr' ? ` dir="${options.dir}"` : '';
  const header = options.header_text ? `<p class="folio-header">${escape(options.header_text)}</p>\n` : '';
  const heading = title ? `<h1>${escape(title)}</h1>\n` : '';
  return `<!DOCTYPE html>
<html${lang}${dir}>
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
</head>
<body>
<article>
${header}${heading}${contentHtml}</article>
</body>
</html>
`;
}
