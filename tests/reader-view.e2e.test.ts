import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { pdfImages, pdfText } from '@folio/pdf/test-support/poppler';
import { solidPng } from '@folio/pdf/test-support/png';
import { servePages } from './support/pages.ts';
import { Stack } from './support/stack.ts';

const run = promisify(execFile);

/**
 * What a reader sees, tried as a new user would: a page served locally, so that one of its images cannot load, read
 * back from each output. The docx is opened the way most readers without Word open it: LibreOffice (headless, from
 * Debian's libreoffice-writer-nogui, which `npm test`'s bootstrap installs) prints it to pdf, and the check reads
 * that pdf with poppler.
 */

const HEADLINE = 'Marathon in One Year for Beginners, With a Training Plan for Every Week of the Year';
const PHOTO = solidPng(240, 160, [30, 90, 200]);
const paragraph = (i: number) =>
  `<p>Week ${i} of the plan adds a little distance to the long run and keeps the others easy, so that the body has time to adapt before the next step.</p>`;

/** Alt texts the reader must never see (an image that did not load is dropped, not described), and captions they must. */
const ALTS = ['Altgood runner', 'Altmissing bridge', 'Altprivate track', 'Altnotimage shoes'];
const CAPTIONS = ['The start line at dawn', 'The bridge at mile ten', 'The track behind the school', 'Shoes worth their price'];

const story = (privateOrigin: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${HEADLINE} » Take The Magic Step®</title>
<link rel="canonical" href="https://takethemagicstep.example/marathon-in-one-year">
<meta name="author" content="Ada Runner"><meta property="article:published_time" content="2024-07-08T06:00:00Z">
</head><body><header><a href="/">Take The Magic Step®</a></header><article><h1>${HEADLINE}</h1>
${paragraph(1)}${paragraph(2)}
<figure><img src="/photo.png" alt="${ALTS[0]}"><figcaption>${CAPTIONS[0]}</figcaption></figure>
${paragraph(3)}
<figure><img src="/missing.png" alt="${ALTS[1]}"><figcaption>${CAPTIONS[1]}</figcaption></figure>
${paragraph(4)}
<figure><img src="${privateOrigin}/track.png" alt="${ALTS[2]}"><figcaption>${CAPTIONS[2]}</figcaption></figure>
${paragraph(5)}
<figure><img src="/shoes.png" alt="${ALTS[3]}"><figcaption>${CAPTIONS[3]}</figcaption></figure>
${paragraph(6)}<p>The last line of the story.</p></article></body></html>`;

/** Words of a pdf page with their boxes, in reading order (pdftotext -bbox). */
async function wordsOf(pdf: Buffer): Promise<{ text: string; yMin: number; yMax: number }[]> {
  const html = await pdfText(pdf, ['-bbox']);
  return [...html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    yMin: Number(m[1]),
    yMax: Number(m[2]),
    text: m[3]!,
  }));
}

function inOrder(text: string, parts: string[]): void {
  const at = parts.map((part) => text.indexOf(part));
  expect(at.filter((i) => i < 0), `missing: ${parts.filter((_, i) => at[i]! < 0).join(' | ')} in: ${text.slice(0, 600)}`).toEqual([]);
  expect(at).toEqual([...at].sort((a, b) => a - b));
}

describe('what a reader sees in the html, the pdf, and the docx opened in LibreOffice', () => {
  let stack: Stack;
  let key: string;
  let site: { server: Server; origin: string };
  // 127.0.0.2 is a private address the stack refuses: the image there never arrives (and must never be asked for).
  let canary: Server;
  const canaryHits: string[] = [];
  let url: string;

  beforeAll(async () => {
    canary = createServer((req, res) => {
      canaryHits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.2', r));
    const privateOrigin = `http://127.0.0.2:${(canary.address() as AddressInfo).port}`;
    site = await servePages({
      '/2024/07/marathon': { type: 'text/html; charset=utf-8', body: story(privateOrigin) },
      '/photo.png': { type: 'image/png', body: PHOTO },
      // An error page served as an image: bytes arrive, but no image.
      '/shoes.png': { type: 'image/png', body: '<!doctype html><title>Oops</title><p>Something went wrong.</p>' },
    });
    url = `${site.origin}/2024/07/marathon`;
    stack = Stack.shared('loopback-public');
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    site?.server.close();
    canary?.close();
  });

  const convert = async (output: 'html' | 'pdf' | 'docx') => {
    const response = await stack.request('POST', '/v2/convert', { key, json: { url, output } });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const file = async (body: { file_url: string }) => Buffer.from(await (await fetch(body.file_url)).arrayBuffer());

  it("names the article without its site's name, and its site as the host of its address", async () => {
    const html = await convert('html');
    expect(html.document).toMatchObject({
      title: HEADLINE,
      url: 'https://takethemagicstep.example/marathon-in-one-year',
      site: 'takethemagicstep.example',
      author: 'Ada Runner',
    });
  });

  it('html: keeps the image that arrived and every caption, and drops the images that did not', async () => {
    const { content } = await convert('html');
    const images = [...content.matchAll(/<img\b[^>]*>/g)].map((m: RegExpMatchArray) => m[0]);
    expect(images).toEqual([`<img src="${site.origin}/photo.png" alt="${ALTS[0]}">`]);
    inOrder(content, [...CAPTIONS, 'The last line of the story.']);
    for (const alt of ALTS.slice(1)) expect(content).not.toContain(alt);
  });

  it('html and pdf from supplied html, sync: the same images dropped as from the page', async () => {
    // A quick sync job is converted in the renderer's own thread; its images are fetched and judged all the same.
    const html = story(`http://127.0.0.2:${(canary.address() as AddressInfo).port}`);
    const page = await stack.request('POST', '/v2/convert', { key, json: { html, source_url: url, output: 'html' } });
    expect(page.status, page.text).toBe(200);
    const images = [...page.body.content.matchAll(/<img\b[^>]*>/g)].map((m: RegExpMatchArray) => m[0]);
    expect(images).toEqual([`<img src="${site.origin}/photo.png" alt="${ALTS[0]}">`]);
    const printed = await stack.request('POST', '/v2/convert', { key, json: { html, source_url: url, output: 'pdf' } });
    expect(printed.status, printed.text).toBe(200);
    const text = (await pdfText(await file(printed.body))).replace(/\s+/g, ' ');
    for (const alt of ALTS) expect(text).not.toContain(alt);
    inOrder(text, CAPTIONS);
  });

  it('pdf: prints the image that arrived and every caption, and no broken image with its alt text', async () => {
    const pdf = await file(await convert('pdf'));
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
    inOrder(text, ['Marathon in One Year', 'takethemagicstep.example', 'Ada Runner', '2024-07-08', 'Week 1 of the plan', ...CAPTIONS, 'The last line']);
    for (const alt of ALTS) expect(text).not.toContain(alt);
    expect(await pdfImages(pdf)).toEqual([{ width: 240, height: 160 }]);
  });

  it('docx, as LibreOffice prints it: a wrapped title whose lines do not overlap, the byline, every caption, one image', async () => {
    const docx = await file(await convert('docx'));
    const dir = await mkdtemp(join(tmpdir(), 'folio-reader-'));
    try {
      await writeFile(join(dir, 'story.docx'), docx);
      // A profile of its own: LibreOffice refuses to share one with another instance.
      await run(
        'soffice',
        [`-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, join(dir, 'story.docx')],
        { timeout: 120_000 },
      );
      const pdf = await readFile(join(dir, 'story.pdf'));

      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      inOrder(text, [
        'Marathon in One Year',
        // (the address may wrap at a hyphen, which pdftotext then joins)
        'takethemagicstep.example · Ada Runner · 2024-07-08 · https://takethemagicstep.example/marathon',
        'Week 1 of the plan',
        ...CAPTIONS,
        'The last line of the story.',
      ]);
      for (const alt of ALTS) expect(text).not.toContain(alt);
      expect(await pdfImages(pdf)).toEqual([{ width: 240, height: 160 }]);

      // The title's words, line by line: it wraps, and each line starts below the one before ends.
      const words = await wordsOf(pdf);
      const titleWords = words.slice(0, HEADLINE.split(' ').length);
      expect(titleWords.map((w) => w.text).join(' ')).toBe(HEADLINE);
      const lines: { yMin: number; yMax: number }[] = [];
      for (const word of titleWords) {
        const line = lines.find((l) => Math.abs(l.yMin - word.yMin) < 1);
        if (!line) lines.push({ yMin: word.yMin, yMax: word.yMax });
      }
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < lines.length; i++) expect(lines[i]!.yMin).toBeGreaterThanOrEqual(lines[i - 1]!.yMax - 0.5);
      // …and the byline below the title's last line.
      const byline = words.find((w) => w.text === 'takethemagicstep.example')!;
      expect(byline.yMin).toBeGreaterThanOrEqual(lines[lines.length - 1]!.yMax - 0.5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(canaryHits).toEqual([]);
  });
});
