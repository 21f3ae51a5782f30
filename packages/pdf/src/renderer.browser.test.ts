import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLaunchError, PdfRenderer, RenderCrashedError, RendererClosedError, RenderTimeoutError } from './index.ts';
import { TAGGED_BLOCK_ELEMENTS_MAX, TAGGED_ELEMENTS_MAX } from './print-options.ts';
import { solidPng } from './test-support/png.ts';
import fs from 'node:fs';
import { pdfFonts, pdfImages, pdfInfo, pdfText, pdfWords } from './test-support/poppler.ts';
import { alive, chromiumBrowsers, chromiumRenderers } from './test-support/processes.ts';
import { startServer, type RecordingServer } from './test-support/servers.ts';

const page = (body: string, attrs = 'lang="en"'): string =>
  `<!doctype html><html ${attrs}><head><meta charset="utf-8"><title>t</title>` +
  `<style>body{font-family:'Noto Serif',serif;font-size:12pt}</style></head><body>${body}</body></html>`;

const paragraphs = (n: number, word = 'lorem'): string =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1}: ${`${word} ipsum dolor sit amet `.repeat(12)}</p>`).join('');

describe('PdfRenderer: what the PDF contains', () => {
  const renderer = new PdfRenderer({ pages: 2 });
  beforeAll(() => renderer.start());
  afterAll(() => renderer.close());

  it('prints the page with its text', async () => {
    const pdf = await renderer.render(page('<h1>Quarterly report</h1><p>Revenue grew by <b>twelve</b> percent.</p>'), { pageSize: 'letter' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Quarterly report');
    expect(text).toContain('Revenue grew by twelve percent.');
  });

  it('prints a tagged PDF (its structure for screen readers), and untagged past TAGGED_ELEMENTS_MAX elements or TAGGED_BLOCK_ELEMENTS_MAX in a block', async () => {
    const tagged = await renderer.render(page('<h1>Report</h1><p>Revenue grew by <b>twelve</b> percent.</p><ul><li>one</li></ul>'), { pageSize: 'letter' });
    expect((await pdfInfo(tagged)).Tagged).toBe('yes');
    // Empty elements weigh nothing in print but count as elements: the size is the markup's, not the page count's.
    const large = await renderer.render(page(`<p>Long document</p>${'<p><b></b></p>'.repeat(TAGGED_ELEMENTS_MAX / 2)}`), { pageSize: 'letter' });
    expect((await pdfInfo(large)).Tagged).toBe('no');
    expect(await pdfText(large)).toContain('Long document');
    // Past TAGGED_BLOCK_ELEMENTS_MAX in one block, untagged; the same elements over several blocks, tagged.
    const runs = (n: number) => '<b>x</b> '.repeat(n);
    const dense = await renderer.render(page(`<p>Dense paragraph</p><p>${runs(TAGGED_BLOCK_ELEMENTS_MAX + 1)}</p>`), { pageSize: 'letter' });
    expect((await pdfInfo(dense)).Tagged).toBe('no');
    const spread = await renderer.render(page(`<p>Spread paragraphs</p><p>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}</p><p>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}</p>`), { pageSize: 'letter' });
    expect((await pdfInfo(spread)).Tagged).toBe('yes');
  });

  it('prints on letter by default and on A4 when asked (any case)', async () => {
    const html = page('<p>size check</p>');
    const letter = await pdfInfo(await renderer.render(html, { pageSize: 'letter' }));
    const a4 = await pdfInfo(await renderer.render(html, { pageSize: 'a4' }));
    const upper = await pdfInfo(await renderer.render(html, { pageSize: 'A4' as 'a4' }));
    expect(letter['Page size']).toBe('612 x 792 pts (letter)');
    expect(a4['Page size']).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)$/);
    expect(upper['Page size']).toBe(a4['Page size']);
    await expect(renderer.render(html, { pageSize: 'legal' as 'a4' })).rejects.toThrow(RangeError);
  });

  it('has the fonts for Cyrillic, Greek, CJK, Arabic and Hebrew', async () => {
    const samples = {
      cyrillic: 'Съешь же ещё этих мягких французских булок',
      greek: 'Ξεσκεπάζω την ψυχοφθόρα βδελυγμία',
      chinese: '我能吞下玻璃而不伤身体',
      japanese: 'いろはにほへとちりぬるを',
      korean: '다람쥐 헌 쳇바퀴에 타고파',
      arabic: 'نص حكيم له سر قاطع',
      hebrew: 'דג סקרן שט בים מאוכזב',
    };
    const body = Object.entries(samples).map(([k, v]) => `<p id="${k}">${v}</p>`).join('');
    const pdf = await renderer.render(page(body), { pageSize: 'a4' });
    // pdftotext wraps right-to-left runs in bidi embedding marks; they are not part of the words.
    const text = (await pdfText(pdf)).replace(/[\u202a-\u202e\u200e\u200f]/g, '');
    for (const [script, sample] of Object.entries(samples)) {
      for (const word of sample.split(' ')) expect(text, `${script}: ${word}`).toContain(word);
    }
  });

  it('prints the page’s own margin boxes in the bottom margin (page numbers)', async () => {
    const numbered = page(`<h1>Long read</h1>${paragraphs(60)}`).replace(
      '</style>',
      '@page { @bottom-center { content: counter(page) "/" counter(pages); font-size: 9pt } }</style>',
    );
    const pdf = await renderer.render(numbered, { pageSize: 'letter' });
    const pages = Number((await pdfInfo(pdf)).Pages);
    expect(pages).toBeGreaterThanOrEqual(3);
    for (let n = 1; n <= pages; n++) {
      const text = await pdfText(pdf, ['-f', String(n), '-l', String(n)]);
      const lastLine = text.trim().split('\n').pop()!.replace(/\s/g, '');
      expect(lastLine, `footer of page ${n}`).toBe(`${n}/${pages}`);
    }
    // Nothing of Chromium's own header and footer (date, title, address) is printed.
    expect(await pdfText(pdf, ['-f', '1', '-l', '1'])).not.toMatch(/about:blank|\d{1,2}\/\d{1,2}\/\d{2,4}/);
  });

  it('prints with a web font and an image that only the stylesheet names (what a css_url brings)', async () => {
    const site = await startServer('127.0.0.1', (req, res) => {
      if (req.url === '/style.css') {
        res.writeHead(200, { 'content-type': 'text/css' });
        return res.end('@font-face { font-family: Brand; src: url(/brand.ttf); } p { font-family: Brand; } .mark { background: url(/mark.png); width: 40px; height: 40px; }');
      }
      if (req.url === '/brand.ttf') {
        res.writeHead(200, { 'content-type': 'font/ttf', 'access-control-allow-origin': '*' }); // fonts are fetched with CORS
        return res.end(fs.readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'));
      }
      if (req.url === '/mark.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(40, 40));
      res.writeHead(404).end();
    });
    const styled = new PdfRenderer({ pages: 1, allowPrivateHosts: ['127.0.0.1'] });
    try {
      const html = `<!doctype html><html><head><link rel="stylesheet" href="${site.origin}/style.css"></head><body><p>Branded words</p><div class="mark"></div></body></html>`;
      const pdf = await styled.render(html, { pageSize: 'letter' });
      expect(await pdfFonts(pdf)).toContain('DejaVuSansMono');
      expect(await pdfText(pdf)).toContain('Branded words');
      expect(site.paths).toEqual(expect.arrayContaining(['/style.css', '/brand.ttf', '/mark.png']));
      expect(await pdfImages(pdf)).toContainEqual({ width: 40, height: 40 });
    } finally {
      await styled.close();
      await site.close();
    }
  });

  it('sends no cookie a site set while printing one document when printing the next (jobs share no cookie jar)', async () => {
    const cookies: string[] = [];
    const site = await startServer('127.0.0.1', (req, res) => {
      cookies.push(req.headers.cookie ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'set-cookie': 'tenant=first; Path=/; Max-Age=3600', 'cache-control': 'no-store' });
      res.end(solidPng(10, 10));
    });
    const one = new PdfRenderer({ pages: 1, allowPrivateHosts: ['127.0.0.1'] });
    try {
      for (const n of [1, 2, 3]) await one.render(page(`<img src="${site.origin}/job-${n}.png">`), { pageSize: 'letter' });
      expect(site.paths).toEqual(['/job-1.png', '/job-2.png', '/job-3.png']);
      expect(cookies).toEqual(['', '', '']);
    } finally {
      await one.close();
      await site.close();
    }
  });

  it('lays out right-to-left when the page says dir=rtl', async () => {
    const line = '<p>مرحبا</p>';
    const rtl = await pdfWords(await renderer.render(page(line, 'lang="ar" dir="rtl"'), { pageSize: 'letter' }));
    const ltr = await pdfWords(await renderer.render(page(line, 'lang="ar" dir="ltr"'), { pageSize: 'letter' }));
    const word = (words: typeof rtl) => words.find((w) => w.page === 1 && /[\u0600-\u06ff]/.test(w.word))!;
    // Letter is 612 pt wide with 16 mm (≈45 pt) margins: rtl text ends at the right margin, ltr starts at the left.
    expect(word(rtl).xMax).toBeGreaterThan(612 - 45 - 15);
    expect(word(ltr).xMin).toBeLessThan(45 + 15);
  });

  it('keeps concurrent renders apart', async () => {
    const jobs = Array.from({ length: 8 }, (_, i) => renderer.render(page(`<h1>Document number ${i}</h1>`), { pageSize: 'letter' }));
    const texts = await Promise.all(jobs.map(async (job) => pdfText(await job)));
    texts.forEach((text, i) => {
      expect(text).toContain(`Document number ${i}`);
      for (let j = 0; j < 8; j++) if (j !== i) expect(text).not.toContain(`Document number ${j}`);
    });
  });

  it('does not run the page’s scripts', async () => {
    const pdf = await renderer.render(
      page('<p id="p">static text</p><script>document.getElementById("p").textContent = "script ran"</script>'),
      { pageSize: 'letter' },
    );
    const text = await pdfText(pdf);
    expect(text).toContain('static text');
    expect(text).not.toContain('script ran');
  });
});

describe('PdfRenderer: time budget and recovery', () => {
  let stalled: RecordingServer;
  let slow: RecordingServer;
  const renderer = new PdfRenderer({ pages: 2, recycleAfter: 3, allowPrivateHosts: ['127.0.0.1'] });
  let browserPid = 0;

  beforeAll(async () => {
    // Accepts the request and never answers: the page never finishes loading.
    stalled = await startServer('127.0.0.1', () => {});
    // Answers an image after a second: long enough to kill Chromium under a render.
    slow = await startServer('127.0.0.1', (_req, res) => {
      const png = solidPng(20, 20);
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png), 1000);
    });
    const before = new Set(chromiumBrowsers());
    await renderer.start();
    const started = chromiumBrowsers().filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    browserPid = started[0]!;
  });
  afterAll(async () => {
    await renderer.close();
    await stalled.close();
    await slow.close();
  });

  it('gives up on a page that never finishes loading, within its budget, and keeps serving', async () => {
    const t0 = Date.now();
    const stuck = renderer.render(page(`<p>waiting</p><img src="${stalled.origin}/never.png">`), { pageSize: 'letter', timeoutMs: 1500 });
    await expect(stuck).rejects.toBeInstanceOf(RenderTimeoutError);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(4000);
    expect(stalled.paths).toContain('/never.png'); // it really was waiting for the image
    const text = await pdfText(await renderer.render(page('<p>after the timeout</p>'), { pageSize: 'letter' }));
    expect(text).toContain('after the timeout');
  });

  it('replaces pages as it goes (recycleAfter) without a visible difference', async () => {
    for (let i = 0; i < 8; i++) {
      const text = await pdfText(await renderer.render(page(`<p>render ${i}</p>`), { pageSize: 'letter' }));
      expect(text).toContain(`render ${i}`);
    }
  });

  it('tries a render again on a fresh tab when its tab crashes', async () => {
    slow.paths.length = 0;
    const render = renderer.render(page(`<p>crashed once</p><img src="${slow.origin}/slow.png?${Math.random()}">`), { pageSize: 'letter' });
    await waitFor(() => slow.paths.length === 1);
    killTabs(browserPid);
    expect(await pdfText(await render)).toContain('crashed once');
    expect(slow.paths.length).toBe(2); // loaded again on the fresh tab
  });

  it('fails only a document whose tab crashes again, and the next render works', async () => {
    slow.paths.length = 0;
    const victim = renderer.render(page(`<p>crash me</p><img src="${slow.origin}/slow.png?${Math.random()}">`), { pageSize: 'letter' });
    await waitFor(() => slow.paths.length === 1);
    killTabs(browserPid);
    await waitFor(() => slow.paths.length === 2);
    killTabs(browserPid);
    await expect(victim).rejects.toBeInstanceOf(RenderCrashedError);
    expect(alive(browserPid)).toBe(true); // only the tabs died
    const text = await pdfText(await renderer.render(page('<p>after the crash</p>'), { pageSize: 'letter' }));
    expect(text).toContain('after the crash');
  });

  it('restarts a killed browser and finishes the renders it was doing', async () => {
    slow.paths.length = 0;
    const inFlight = renderer.render(page(`<p>in flight</p><img src="${slow.origin}/slow.png?${Math.random()}">`), { pageSize: 'letter' });
    await waitFor(() => slow.paths.length > 0);
    process.kill(browserPid, 'SIGKILL');
    // The render was retried on the new browser: it fetched the image again and succeeded.
    const text = await pdfText(await inFlight);
    expect(text).toContain('in flight');
    expect(slow.paths.length).toBe(2);
    const [restarted] = chromiumBrowsers().filter((pid) => pid !== browserPid && alive(pid));
    expect(restarted).toBeDefined();
    expect(alive(browserPid)).toBe(false);
    browserPid = restarted!;
    const next = await pdfText(await renderer.render(page('<p>next render</p>'), { pageSize: 'letter' }));
    expect(next).toContain('next render');
  });

  it('also recovers when the browser dies while idle', async () => {
    process.kill(browserPid, 'SIGKILL');
    await waitFor(() => !alive(browserPid));
    const text = await pdfText(await renderer.render(page('<p>idle kill</p>'), { pageSize: 'letter' }));
    expect(text).toContain('idle kill');
  });
});

describe('PdfRenderer: frames', () => {
  it('loads no document into a frame, and runs no script in data: or srcdoc frames', async () => {
    const site = await startServer('127.0.0.1', (req, res) => {
      if (req.url === '/frame') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>frame document</p>');
      else res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(solidPng(8, 8));
    });
    const renderer = new PdfRenderer({ pages: 1, allowPrivateHosts: ['127.0.0.1'] });
    // Each inline frame shows an image (so it demonstrably rendered) and has a script that would fetch another.
    const inline = (name: string) =>
      `<p>${name} static</p><img src="${site.origin}/${name}-img"><script>new Image().src = '${site.origin}/${name}-js';</script>`;
    try {
      const text = await pdfText(
        await renderer.render(
          page(
            `<p>main</p><iframe src="${site.origin}/frame"></iframe><object data="${site.origin}/frame"></object>` +
              `<embed src="${site.origin}/frame" type="text/html">` +
              `<iframe src="data:text/html,${encodeURIComponent(inline('data'))}"></iframe>` +
              `<iframe srcdoc="${inline('srcdoc').replace(/"/g, '&quot;')}"></iframe>`,
          ),
          { pageSize: 'letter' },
        ),
      );
      expect(text).toContain('main');
      expect(site.paths).not.toContain('/frame');
      expect(text).not.toContain('frame document');
      expect(site.paths).toEqual(expect.arrayContaining(['/data-img', '/srcdoc-img'])); // the inline frames rendered
      expect(site.paths).not.toContain('/data-js');
      expect(site.paths).not.toContain('/srcdoc-js');
    } finally {
      await renderer.close();
      await site.close();
    }
  });
});

describe('PdfRenderer: memory budget', () => {
  it('keeps the tabs it has while Chromium stays under its budget', async () => {
    const renderer = new PdfRenderer({ pages: 2, memoryCheckIntervalMs: 0 });
    try {
      for (let i = 0; i < 3; i++) await renderer.render(page(paragraphs(20)), { pageSize: 'letter' });
      const { memoryBytes, retiredForMemory } = renderer.stats();
      expect(memoryBytes).toBeGreaterThan(20 * 2 ** 20); // a browser and two tabs, measured from /proc
      expect(retiredForMemory).toBe(0);
    } finally {
      await renderer.close();
    }
  });

  it('replaces the tab that printed the largest document when Chromium is over its budget, and keeps serving', async () => {
    const renderer = new PdfRenderer({ pages: 2, memoryBudgetMb: 1, memoryCheckIntervalMs: 0 });
    try {
      await renderer.start();
      const browserPid = chromiumBrowsers().at(-1)!;
      const before = chromiumRenderers(browserPid);
      await renderer.render(page(paragraphs(200)), { pageSize: 'letter' });
      expect(renderer.stats().retiredForMemory).toBe(1);
      await waitFor(() => chromiumRenderers(browserPid).some((pid) => !before.includes(pid))); // a fresh tab, in its own process
      const text = await pdfText(await renderer.render(page('<p>after the replacement</p>'), { pageSize: 'letter' }));
      expect(text).toContain('after the replacement');
      expect(renderer.stats().retiredForMemory).toBe(2);
    } finally {
      await renderer.close();
    }
  });
});

describe('PdfRenderer: setup problems', () => {
  it('says clearly when Chromium cannot be started, at start and at render', async () => {
    const renderer = new PdfRenderer({ executablePath: '/nonexistent/chromium-headless-shell' });
    await expect(renderer.start()).rejects.toBeInstanceOf(BrowserLaunchError);
    await expect(renderer.render(page('<p>x</p>'), { pageSize: 'letter' })).rejects.toThrow(/cannot start Chromium at \/nonexistent/);
    await renderer.close();
  });
});

describe('PdfRenderer: shutdown', () => {
  it('finishes the renders under way, then stops Chromium and refuses more', async () => {
    const slow = await startServer('127.0.0.1', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(30, 30)), 500);
    });
    const renderer = new PdfRenderer({ pages: 1, allowPrivateHosts: ['127.0.0.1'] });
    const before = new Set(chromiumBrowsers());
    await renderer.start();
    const [pid] = chromiumBrowsers().filter((p) => !before.has(p));
    const underWay = renderer.render(page(`<p>last one</p><img src="${slow.origin}/a.png">`), { pageSize: 'letter' });
    await waitFor(() => slow.paths.length > 0);
    const closed = renderer.close();
    await expect(renderer.render(page('<p>too late</p>'), { pageSize: 'letter' })).rejects.toBeInstanceOf(RendererClosedError);
    expect(await pdfImages(await underWay)).toEqual([{ width: 30, height: 30 }]);
    await closed;
    await waitFor(() => !alive(pid!));
    await slow.close();
  });
});

/** Kills every renderer process of the browser: each of its tabs crashes. */
function killTabs(browserPid: number): void {
  const tabs = chromiumRenderers(browserPid);
  expect(tabs.length).toBeGreaterThan(0);
  for (const pid of tabs) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      // A tab process may end between the listing and the kill (Chromium retires spare renderers): it is gone either way.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
