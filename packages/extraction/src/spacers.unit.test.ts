import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeSpacers } from './spacers.ts';

function spaced(html: string): string {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  removeSpacers(root);
  return root.innerHTML;
}

describe('removeSpacers: paragraphs that are only spacing', () => {
  it('removes a paragraph or heading holding a zero-width joiner, a no-break space or a lone <br>', () => {
    expect(spaced('<p>One.</p><p>\u200d</p><p>&nbsp;</p><p><br></p><h2>\u200b</h2><p><span>\ufeff</span></p><p>Two.</p>')).toBe('<p>One.</p><p>Two.</p>');
  });

  it('keeps a paragraph with an image or words in it', () => {
    const html = '<p><img src="https://example.com/a.png" alt=""></p><p>\u200dWords after a joiner.</p><p><svg></svg></p>';
    expect(spaced(html)).toBe(html);
  });
});
