import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { removeHiddenByUtilities } from './hidden-utilities.ts';

function cleaned(html: string): { removed: number; text: string } {
  const { document } = new JSDOM(`<body><div id="content">${html}</div></body>`).window;
  const root = document.getElementById('content')!;
  const removed = removeHiddenByUtilities(root);
  return { removed, text: root.textContent!.replace(/\s+/g, ' ').trim() };
}

describe('removeHiddenByUtilities: what a framework’s utility class hides at every width', () => {
  it('removes what `d-none` hides, such as the TeX markers a Stack Exchange post leaves for MathJax', () => {
    const post = '<div class="postcell"><span class="d-none">\\$\\begingroup\\$</span><div class="s-prose"><p>How does it work?</p></div><span class="d-none">\\$\\endgroup\\$</span></div>';
    expect(cleaned(post)).toEqual({ removed: 2, text: 'How does it work?' });
  });

  it('keeps what is shown again from some screen width on, and what merely names a width', () => {
    const { removed, text } = cleaned(
      '<p class="d-none d-md-block">Shown on a desktop.</p><p class="d-lg-inline-flex d-none">Also shown.</p><p class="d-md-none">Phones only.</p><p class="d-none d-md-none">Never shown.</p><p class="not-d-none">A class of its own.</p>',
    );
    expect(removed).toBe(1);
    expect(text).toBe('Shown on a desktop.Also shown.Phones only.A class of its own.');
  });
});
