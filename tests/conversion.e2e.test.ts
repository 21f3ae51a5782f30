import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mammoth from 'mammoth';
import { pdfImages } from '@folio/pdf/test-support/poppler';
import { solidPng } from '@folio/pdf/test-support/png';
import { Stack } from './support/stack.ts';

const PIXEL = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360f8cfc0f01f0005000201' + 'a2b1e5d70000000049454e44ae426082', 'hex');

const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the story tells how the river rose over the old town and how its people carried their books to the hill, one box at a time, until the library stood empty.</p>`;
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Flood Library | Gazette</title>
<meta property="og:image" content="/lead.png"><meta name="author" content="Ada Writer">
<meta property="article:published_time" content="2024-05-06T07:08:09Z"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>The Flood Library</h1>${Array.from({ length: 12 }, (_, i) => paragraph(i)).join('\n')}
<figure><img src="/lead.png" alt="The hill"><figcaption>The hill at dawn</figcaption></figure>
<ul><li>First box</li><li>Second box</li></ul></article>
<footer>Share on social media · Subscribe</footer><script>document.title = 'hacked'</script></body></html>`;

const PHOTO = solidPng(240, 160, [30, 90, 200]);

/** An article with one photo from its own (allowed) host and every kind of reference to the private canary. */
const photoStory = (canaryOrigin: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Photo story</title>
<link rel="stylesheet" href="${canaryOrigin}/page.css"></head><body><article><h1>Photo story</h1>
${Array.from({ length: 8 }, (_, i) => paragraph(i)).join('\n')}
<figure><img src="/photo.png" alt="The river" width="240" height="160"><figcaption>The river at noon</figcaption></figure>
<p>From the archive: <img src="${canaryOrigin}/img.png" alt="archive"> and
<picture><source srcset="${canaryOrigin}/source.webp"><img src="${canaryOrigin}/picture.png" alt="pictured"></picture>
<span style="background: url(${canaryOrigin}/style-url.png)">styled</span></p>
<iframe src="${canaryOrigin}/frame"></iframe><object data="${canaryOrigin}/object"></object>
<a href="${canaryOrigin}/link">a link is only text</a></article></body></html>`;

const CAPTIONS = ['The north pier at dawn', 'Boats coming in at noon', 'The harbour wall at dusk'];
const GALLERY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A week on the coast</title></head><body>
<nav><a href="/">Home</a></nav><main><h1>A week on the coast</h1>
${CAPTIONS.map((caption, i) => `<figure><img src="/lead.png?${i}" alt=""><figcaption>${caption}</figcaption></figure>`).join('\n')}
</main><footer>© Gazette</footer></body></html>`;

describe('every input to every output through POST /v2/convert', () => {
  let stack: Stack;
  let key: string;
  let site: Server;
  let origin: string;
  // 127.0.0.1 stands in for the public web (allowlisted); 127.0.0.2 is a private address that must never be reached.
  let canary: Server;
  let canaryOrigin: string;
  const canaryHits: string[] = [];

  beforeAll(async () => {
    canary = createServer((req, res) => {
      canaryHits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.2', r));
    canaryOrigin = `http://127.0.0.2:${(canary.address() as AddressInfo).port}`;
    site = createServer((req, res) => {
      if (req.url === '/photo.png') {
        res.setHeader('content-type', 'image/png');
        return res.end(PHOTO);
      }
      if (req.url === '/2024/06/photo-story') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(photoStory(canaryOrigin));
      }
      if (req.url?.split('?')[0] === '/lead.png') {
        res.setHeader('content-type', 'image/png');
        return res.end(PIXEL);
      }
      if (req.url === '/2024/05/flood-library') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(ARTICLE);
      }
      if (req.url === '/2024/07/coast-gallery') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(GALLERY);
      }
      if (req.url === '/empty-story') {
        res.setHeader('content-type', 'text/html');
        return res.end('<html><body><nav>menu</nav></body></html>');
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    stack = Stack.shared('loopback-public');
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    site?.close();
    canary?.close();
  });

  const convert = (body: Record<string, unknown>) => stack.request('POST', '/v2/convert', { key, json: body });

  it('reduces a web page to its article, with its metadata, as text, markdown, html and json', async () => {
    const url = `${origin}/2024/05/flood-library`;
    const text = await convert({ url, output: 'text' });
    expect(text.status).toBe(200);
    expect(text.body.content).toContain('Paragraph 11 of the story');
    expect(text.body.content).not.toMatch(/Share on social media|Subscribe|hacked/);
    expect(text.body.document).toMatchObject({ url, site: '127.0.0.1', author: 'Ada Writer', date: '2024-05-06T07:08:09Z', image: `${origin}/lead.png` });
    expect(text.body.document.word_count).toBeGreaterThan(300);

    const markdown = await convert({ url, output: 'markdown', include_links: true });
    expect(markdown.body.content).toContain(`![The hill](${origin}/lead.png)`);

    const html = await convert({ url, output: 'html', css_url: 'https://cdn.example/extra.css', header_text: 'For the archive' });
    expect(html.body.content).not.toMatch(/<script/i);
    expect(html.body.content.indexOf('https://cdn.example/extra.css')).toBeGreaterThan(html.body.content.indexOf('<style'));
    expect(html.body.content).toContain('For the archive');

    const json = await convert({ url, output: 'json' });
    expect(json.body.document).toMatchObject({ title: expect.stringContaining('Flood Library'), content_html: expect.stringContaining('<p>'), content_markdown: expect.stringContaining('Paragraph 3') });
  });

  it('gives a gallery, whose only words are its captions, as its captions in text and counts them', async () => {
    const url = `${origin}/2024/07/coast-gallery`;
    const text = await convert({ url, output: 'text' });
    expect(text.status).toBe(200);
    expect(text.body.content).toBe(`A week on the coast\n\n${CAPTIONS.join('\n\n')}`);
    expect(text.body.document.word_count).toBe(CAPTIONS.join(' ').split(' ').length);
    const html = await convert({ url, output: 'html' });
    expect(html.body.content.match(/<figcaption>/g)).toHaveLength(CAPTIONS.length);
  });

  it('makes a pdf with the article text, its page size and a link that serves it', async () => {
    const response = await convert({ url: `${origin}/2024/05/flood-library`, output: 'pdf', page_size: 'A4' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', output: 'pdf', size_bytes: expect.any(Number) });
    expect(Date.parse(response.body.expires_at)).toBeGreaterThan(Date.now() + 47 * 3600 * 1000);
    const file = await fetch(response.body.file_url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBe(response.body.size_bytes);
    const path = join(mkdtempSync(join(tmpdir(), 'folio-pdf-')), 'out.pdf');
    writeFileSync(path, bytes);
    expect(execFileSync('pdftotext', [path, '-']).toString()).toContain('Paragraph 11 of the story');
    const info = execFileSync('pdfinfo', [path]).toString();
    expect(info).toMatch(/Page size:\s+595\.\d+ x 841\.\d+/);
    expect(info).toMatch(/Tagged:\s+yes/); // its structure for screen readers
  });

  it('makes a docx from markdown, asynchronously, readable back', async () => {
    const accepted = await convert({ markdown: '# Plan\n\n- one\n  - nested\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[site](https://example.com)', output: 'docx', title: 'Doc', async: true });
    expect(accepted.status).toBe(202);
    const job = await stack.waitForJob(key, accepted.body.job_id, 90_000);
    expect(job.status).toBe('succeeded');
    const bytes = Buffer.from(await (await fetch(job.result.file_url)).arrayBuffer());
    const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
    expect(html).toContain('Plan');
    expect(html).toContain('nested');
    expect(html).toContain('<table>');
    expect(html).toContain('href="https://example.com/"');
  });

  it('embeds an image from an allowed host in the pdf and the docx, and never reaches a private address', async () => {
    const url = `${origin}/2024/06/photo-story`;
    // A stylesheet or header image on a private network is refused at the door, naming the parameter…
    const privateExtras = await convert({ url, output: 'pdf', header_image_url: `${canaryOrigin}/header.png`, css_url: `${canaryOrigin}/style.css` });
    expect(privateExtras.status).toBe(400);
    expect(privateExtras.body.error.errors.map((e: { parameter: string }) => e.parameter)).toEqual(['css_url', 'header_image_url']);
    // …and what the page itself references on one is never fetched while printing.
    const pdf = await convert({ url, output: 'pdf' });
    expect(pdf.status).toBe(200);
    const pdfBytes = Buffer.from(await (await fetch(pdf.body.file_url)).arrayBuffer());
    expect(await pdfImages(pdfBytes)).toContainEqual({ width: 240, height: 160 });

    const docx = await convert({ url, output: 'docx' });
    expect(docx.status).toBe(200);
    const docxBytes = Buffer.from(await (await fetch(docx.body.file_url)).arrayBuffer());
    const { value: html } = await mammoth.convertToHtml({ buffer: docxBytes });
    const embedded = [...html.matchAll(/<img [^>]*src="data:image\/png;base64,([^"]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64'));
    expect(embedded.some((png) => png.equals(PHOTO))).toBe(true);

    expect(canaryHits).toEqual([]);
  });

  it('answers the interface errors for pages it cannot convert', async () => {
    const front = await convert({ url: `${origin}/`, output: 'text' });
    expect(front.status).toBe(422);
    expect(front.body.error).toMatchObject({ code: 'homepage_url', retryable: false });
    const missing = await convert({ url: `${origin}/no-such-story`, output: 'text' });
    expect(missing.body.error).toMatchObject({ code: 'fetch_failed', retryable: true });
    const empty = await convert({ url: `${origin}/empty-story`, output: 'text' });
    expect(empty.body.error).toMatchObject({ code: 'parse_failed', retryable: false });
    // A private page address is refused at the door, before any job or connection, naming the parameter.
    const privateHost = await convert({ url: 'http://127.0.0.2:9/story/1', output: 'text' });
    expect(privateHost.status).toBe(400);
    expect(privateHost.body.error).toMatchObject({ code: 'invalid_parameters', retryable: false, errors: [{ parameter: 'url' }] });
    const scheme = await convert({ url: 'ftp://example.com/story', output: 'text' });
    expect(scheme.status).toBe(400);
  });
});
