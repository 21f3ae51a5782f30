import { describe, expect, it } from 'vitest';
import { domWindow, parseHtmlDocument } from './index.ts';

describe('the thread’s window', () => {
  it('parses documents at their own address, one after another, in the same window', () => {
    const a = parseHtmlDocument('<p><a href="x">x</a></p>', 'https://news.example/2024/story');
    const b = parseHtmlDocument('<p><a href="y">y</a></p>', null);
    expect(a.URL).toBe('https://news.example/2024/story');
    expect(a.querySelector('a')!.href).toBe('https://news.example/2024/x');
    expect(b.URL).toBe('about:blank');
    expect(a.querySelector('a')!.href).toBe('https://news.example/2024/x'); // the first keeps its address
    expect(a.body).toBeInstanceOf(domWindow().HTMLElement);
  });

  it('runs no script and honours a page’s own <base>', () => {
    const doc = parseHtmlDocument('<base href="/static/"><script>document.title = "ran"</script><img src="p.png">', 'https://site.example/a/b');
    expect(doc.title).toBe('');
    expect(doc.querySelector('img')!.src).toBe('https://site.example/static/p.png');
    expect(parseHtmlDocument('<p>x</p>', 'file:///etc/passwd').URL).toBe('about:blank');
  });
});
