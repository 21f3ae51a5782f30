import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx, type DocxInput } from './index.ts';
import { loadImages } from './image-loading.ts';
import { pictureSizes, readDocx } from './test-support/docx-reader.ts';
import { GIF_1X1, JPEG_160X90, SVG, WEBP_16X16, bmp, dataUrl, png } from './test-support/images.ts';

type Served = Record<string, { data: Buffer; contentType: string }>;

/** A fetcher over a fixed set of images that records what it was asked for. */
function fetcherOf(served: Served) {
  const requested: string[] = [];
  const fetchImage: DocxInput['fetchImage'] = async (url) => {
    requested.push(url);
    return served[url] ?? null;
  };
  return { fetchImage, requested };
}

async function build(contentHtml: string, overrides: Partial<DocxInput> = {}) {
  const buffer = await buildDocx({
    title: 'Images',
    headerText: null,
    author: null,
    sourceUrl: null,
    contentHtml,
    pageSize: 'letter',
    fetchImage: async () => null,
    ...overrides,
  });
  return readDocx(buffer);
}

const media = (parts: string[]) => parts.filter((name) => name.startsWith('word/media/')).map((name) => name.replace(/^.*\./, ''));

describe('embedding images', () => {
  it('embeds PNG, JPEG, GIF and BMP, recognised by their bytes', async () => {
    const { fetchImage } = fetcherOf({
      'https://img.example/a.png': { data: png(40, 30), contentType: 'image/png' },
      'https://img.example/b.jpg': { data: JPEG_160X90, contentType: 'image/jpeg' },
      // a server that mislabels its image does not stop it from being embedded as what it is
      'https://img.example/c': { data: bmp(20, 10), contentType: 'application/octet-stream' },
    });
    const docx = await build(
      `<p><img src="https://img.example/a.png" alt="a"><img src="https://img.example/b.jpg" alt="b"><img src="${dataUrl('image/gif', GIF_1X1)}" alt="c"><img src="https://img.example/c" alt="d"></p>`,
      { fetchImage },
    );
    expect(media(docx.parts).sort()).toEqual(['bmp', 'gif', 'jpg', 'png']);
    expect(pictureSizes(docx.documentXml)).toEqual([
      { width: 40, height: 30 },
      { width: 160, height: 90 },
      { width: 1, height: 1 },
      { width: 20, height: 10 },
    ]);
  });

  it('scales a wide image to the text width of the page, keeping its aspect ratio', async () => {
    const { fetchImage } = fetcherOf({ 'https://img.example/wide.png': { data: png(2000, 1000), contentType: 'image/png' } });
    const letter = pictureSizes((await build('<img src="https://img.example/wide.png">', { fetchImage })).documentXml);
    const a4 = pictureSizes((await build('<img src="https://img.example/wide.png">', { fetchImage, pageSize: 'a4' })).documentXml);
    // Letter: 8.5 in − 2 × 1 in = 6.5 in = 624 px. A4: (11906 − 2880) twips / 15 = 601.7 … = 601 px.
    expect(letter).toEqual([{ width: 624, height: 312 }]);
    expect(a4[0]!.width).toBe(601);
    expect(Math.abs(a4[0]!.height - 300.5)).toBeLessThanOrEqual(0.5);
  });

  it('keeps a tall image within the page height, keeping its aspect ratio', async () => {
    const { fetchImage } = fetcherOf({ 'https://img.example/tall.png': { data: png(100, 3000), contentType: 'image/png' } });
    const [size] = pictureSizes((await build('<img src="https://img.example/tall.png">', { fetchImage })).documentXml);
    // 9 in of text height less room for a caption: 864 px × 0.85 = 734 px.
    expect(size!.height).toBeLessThanOrEqual(734);
    expect(size!.height).toBeGreaterThan(700);
    expect(Math.abs(size!.width / size!.height - 100 / 3000)).toBeLessThan(0.01);
  });

  it('ignores placeholder sizes left by lazy-loading markup', async () => {
    const { fetchImage } = fetcherOf({ 'https://img.example/b.jpg': { data: JPEG_160X90, contentType: 'image/jpeg' } });
    const docx = await build('<img src="https://img.example/b.jpg" width="1" height="1" style="width:1px;height:1px">', { fetchImage });
    expect(pictureSizes(docx.documentXml)).toEqual([{ width: 160, height: 90 }]);
  });

  it('fetches an image used twice only once', async () => {
    const { fetchImage, requested } = fetcherOf({ 'https://img.example/a.png': { data: png(10, 10), contentType: 'image/png' } });
    const docx = await build('<p><img src="https://img.example/a.png"></p><p><img src="https://img.example/a.png"></p>', { fetchImage });
    expect(requested).toEqual(['https://img.example/a.png']);
    expect(pictureSizes(docx.documentXml)).toHaveLength(2);
  });

  it('resolves relative image addresses against the source page', async () => {
    const { fetchImage, requested } = fetcherOf({ 'https://news.example/media/a.png': { data: png(10, 10), contentType: 'image/png' } });
    const docx = await build('<img src="../media/a.png" alt="rel">', { fetchImage, sourceUrl: 'https://news.example/story/today' });
    expect(requested).toEqual(['https://news.example/media/a.png']);
    expect(media(docx.parts)).toEqual(['png']);
  });

  it('uses the first srcset candidate of an image without src', async () => {
    const { fetchImage } = fetcherOf({ 'https://img.example/small.png': { data: png(12, 12), contentType: 'image/png' } });
    const docx = await build('<img srcset="https://img.example/small.png 1x, https://img.example/big.png 2x" alt="s">', { fetchImage });
    expect(pictureSizes(docx.documentXml)).toEqual([{ width: 12, height: 12 }]);
  });
});

describe('images that are left out', () => {
  it('leaves out an image over the size limit, shows its alt text, and still builds the document', async () => {
    const big = png(300, 300, { noise: true });
    const { fetchImage, requested } = fetcherOf({ 'https://img.example/big.png': { data: big, contentType: 'image/png' } });
    const docx = await build('<p>Before <img src="https://img.example/big.png" alt="a big chart"> after.</p>', {
      fetchImage,
      maxImageBytes: big.length - 1,
    });
    expect(requested).toEqual(['https://img.example/big.png']);
    expect(media(docx.parts)).toEqual([]);
    expect(docx.html).toContain('<p>Before a big chart after.</p>');
  });

  it('leaves out an over-limit data: URL image without decoding it', async () => {
    const big = png(300, 300, { noise: true });
    const docx = await build(`<p><img src="${dataUrl('image/png', big)}" alt="inline chart"></p>`, { maxImageBytes: 100_000 });
    expect(big.length).toBeGreaterThan(100_000);
    expect(media(docx.parts)).toEqual([]);
    expect(docx.html).toContain('<p>inline chart</p>');
  });

  it('embeds an image of exactly the limit', async () => {
    const data = png(50, 50);
    const { fetchImage } = fetcherOf({ 'https://img.example/a.png': { data, contentType: 'image/png' } });
    const docx = await build('<img src="https://img.example/a.png">', { fetchImage, maxImageBytes: data.length });
    expect(media(docx.parts)).toEqual(['png']);
  });

  it('leaves out images whose fetch fails, returns nothing, or throws', async () => {
    const fetchImage: DocxInput['fetchImage'] = async (url) => {
      if (url.endsWith('/throws.png')) throw new Error('connection reset');
      return null;
    };
    const docx = await build(
      '<p><img src="https://img.example/none.png" alt="first"> and <img src="https://img.example/throws.png" alt="second"> and <img src="https://img.example/none.png"></p>',
      { fetchImage },
    );
    expect(media(docx.parts)).toEqual([]);
    expect(docx.html).toContain('<p>first and second and</p>');
  });

  it('does not embed SVG or WebP, whatever the Content-Type says', async () => {
    const { fetchImage } = fetcherOf({
      'https://img.example/logo.svg': { data: SVG, contentType: 'image/svg+xml' },
      'https://img.example/icon.webp': { data: WEBP_16X16, contentType: 'image/webp' },
      'https://img.example/fake.png': { data: Buffer.from('<html>Not found</html>'), contentType: 'image/png' },
    });
    const docx = await build(
      `<p><img src="https://img.example/logo.svg" alt="logo"> <img src="https://img.example/icon.webp" alt="icon"> <img src="https://img.example/fake.png" alt="fake"> <img src="${dataUrl('image/svg+xml', SVG)}" alt="inline"></p>`,
      { fetchImage },
    );
    expect(media(docx.parts)).toEqual([]);
    expect(docx.html).toContain('<p>logo icon fake inline</p>');
  });

  it('drops inline <svg> (whose references Word could follow), keeping its label', async () => {
    const docx = await build('<p>Rating <svg aria-label="four stars" viewBox="0 0 10 10"><image href="http://127.0.0.2/canary.png"/></svg>.</p>');
    expect(docx.parts.some((name) => name.startsWith('word/media/'))).toBe(false);
    expect(docx.html).toContain('<p>Rating four stars.</p>');
  });

  it('asks the fetcher only for http(s) addresses', async () => {
    const { fetchImage, requested } = fetcherOf({});
    const docx = await build(
      '<p><img src="file:///etc/passwd" alt="f"><img src="ftp://files.example/a.png" alt="g"><img src="/relative.png" alt="h"><img src="javascript:alert(1)" alt="i"><img src="https://img.example/ok.png" alt="j"></p>',
      { fetchImage },
    );
    expect(requested).toEqual(['https://img.example/ok.png']);
    expect(docx.html).toContain('<p>fghij</p>');
  });
});

describe('loadImages', () => {
  it('gives up on fetches that never settle once its time budget is spent, and starts no new ones', async () => {
    const requested: string[] = [];
    const sources = Array.from({ length: 6 }, (_, i) => `https://img.example/hang-${i}.png`);
    const outcomes = await loadImages(sources, {
      fetchImage: (url) => {
        requested.push(url);
        return new Promise(() => {});
      },
      maxImageBytes: 1_000_000,
      concurrency: 2,
      budgetMs: 50,
    });
    expect(requested).toEqual(sources.slice(0, 2));
    expect([...outcomes.values()]).toEqual(sources.map(() => ({ ok: false, reason: 'unreachable' })));
  });

  it('says why each image is left out', async () => {
    const outcomes = await loadImages(['https://img.example/big.png', 'https://img.example/svg', 'file:///x.png', 'https://img.example/none'], {
      fetchImage: async (url) =>
        url.endsWith('big.png') ? { data: png(100, 100, { noise: true }), contentType: 'image/png' } : url.endsWith('svg') ? { data: SVG, contentType: 'image/svg+xml' } : null,
      maxImageBytes: 1000,
    });
    expect(Object.fromEntries([...outcomes].map(([source, outcome]) => [source, outcome.ok ? 'ok' : outcome.reason]))).toEqual({
      'https://img.example/big.png': 'too-large',
      'https://img.example/svg': 'unsupported-format',
      'file:///x.png': 'not-fetchable',
      'https://img.example/none': 'unreachable',
    });
  });

  it('runs at most four fetches at once', async () => {
    let running = 0;
    let peak = 0;
    const sources = Array.from({ length: 12 }, (_, i) => `https://img.example/${i}.png`);
    const outcomes = await loadImages(sources, {
      fetchImage: async () => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return { data: png(2, 2), contentType: 'image/png' };
      },
      maxImageBytes: 1_000_000,
    });
    expect(peak).toBe(4);
    expect([...outcomes.values()].every((outcome) => outcome.ok)).toBe(true);
  });
});

describe('images from a real HTTP server', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/photo.jpg') response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG_160X90);
      else response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** What a caller wires in: a plain HTTP fetch that answers null for anything but a 200. */
  const fetchImage: DocxInput['fetchImage'] = async (url) => {
    const response = await fetch(url);
    if (!response.ok) return null;
    return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
  };

  it('embeds what the server has and falls back to alt text for a 404', async () => {
    const docx = await build(`<p><img src="${origin}/photo.jpg" alt="photo"></p><p><img src="${origin}/gone.png" alt="gone"></p>`, { fetchImage });
    expect(media(docx.parts)).toEqual(['jpg']);
    expect(pictureSizes(docx.documentXml)).toEqual([{ width: 160, height: 90 }]);
    expect(docx.html).toContain('<p>gone</p>');
  });
});
