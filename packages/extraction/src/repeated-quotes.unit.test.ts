import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '@folio/dom';
import { removeRepeatedQuotes } from './repeated-quotes.ts';

const POST = 'Since the firmware update my garden pump will not prime at all, it runs and hums and moves no water.';
const REPLY = 'Check the inlet filter first, mine was clogged with sand and the pressure dropped to almost nothing.';

function cleaned(html: string): Element {
  const content = parseHtmlDocument(`<body><div id="content">${html}</div></body>`, null).getElementById('content')!;
  removeRepeatedQuotes(content);
  return content;
}

describe('removeRepeatedQuotes', () => {
  it("drops a reply's quote of the post above it, with its attribution, and keeps the reply", () => {
    const content = cleaned(`<div class="post"><p>${POST}</p></div>
      <div class="post"><blockquote class="bbCodeBlock bbCodeBlock--quote"><div>Ann said:</div><p>${POST}</p></blockquote>
      <p>${REPLY}</p></div>`);
    expect(content.querySelectorAll('blockquote')).toHaveLength(0);
    expect(content.textContent).not.toContain('Ann said');
    expect(content.textContent).toContain(REPLY);
    expect(content.textContent!.split('garden pump')).toHaveLength(2);
  });

  it('drops a quote marked by its class, and a quote of part of a post', () => {
    const content = cleaned(`<p>${POST} ${REPLY}</p><aside class="quote"><p>${REPLY}</p></aside><p>Thanks, that fixed it.</p>`);
    expect(content.querySelector('aside')).toBeNull();
    expect(content.textContent).toContain('Thanks, that fixed it.');
  });

  it('keeps a quote of something the document does not hold, and a short one', () => {
    const source = 'The pump shall be primed by hand before first use and after every period of storage longer than a week.';
    const content = cleaned(`<p>${POST}</p><blockquote><p>${source}</p></blockquote><blockquote>it runs and hums</blockquote>`);
    expect(content.querySelectorAll('blockquote')).toHaveLength(2);
  });

  it('keeps the first of two quotes of the same text when the document held it nowhere before', () => {
    const content = cleaned(`<blockquote><p>${POST}</p></blockquote><p>${REPLY}</p><blockquote><p>${POST}</p></blockquote>`);
    expect(content.querySelectorAll('blockquote')).toHaveLength(1);
    expect(content.firstElementChild!.localName).toBe('blockquote');
  });
});
