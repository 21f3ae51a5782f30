import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { placeStreamedSegments, streamedSegmentPlaces } from './streamed-segments.ts';

function place(body: string, scripts = '') {
  const document = new JSDOM(`<body>${body}</body>`).window.document;
  placeStreamedSegments(document, streamedSegmentPlaces(body + scripts));
  return document.body;
}

describe('streamed segments: React streaming content, put where its script would put it', () => {
  it('reads the places the script calls name, for boundaries and postponed segments', () => {
    const places = streamedSegmentPlaces('<script>$RC("B:1","S:2")</script><script>$RS("S:3","P:0")</script>');
    expect([...places!]).toEqual([['S:2', 'B:1'], ['S:3', 'P:0']]);
  });

  it('replaces the boundary and its fallback by the segment, where the script says', () => {
    const body = place(
      '<main><h1>Keyboard</h1><!--$?--><template id="B:1"></template><p>Loading…</p><!--/$--><p>After</p></main>' +
        '<footer>Footer</footer><div hidden id="S:2"><p>The full review.</p></div>',
      '<script>$RC("B:1","S:2")</script>',
    );
    expect(body.querySelector('main')!.textContent).toBe('KeyboardThe full review.After');
    expect(body.querySelector('[hidden]')).toBeNull();
  });

  it('pairs by number when the page was saved without its scripts, and keeps a fallback it cannot bound', () => {
    const body = place('<main><template id="B:0"></template><p>Skeleton</p></main><div hidden id="S:0"><p>Posts</p></div>');
    expect(body.querySelector('main')!.textContent).toBe('PostsSkeleton');
  });

  it('shows a segment in place when there is nowhere to put it', () => {
    const body = place('<main><p>Shell</p></main><div hidden id="S:7"><p>Late content</p></div>');
    expect(body.querySelector('#S\\:7')!.hasAttribute('hidden')).toBe(false);
  });

  it('leaves other hidden elements hidden', () => {
    const body = place('<div hidden id="menu"><p>Menu</p></div><div hidden id="S:x y"><p>Not a segment</p></div>');
    expect(body.querySelectorAll('[hidden]').length).toBe(2);
  });
});
