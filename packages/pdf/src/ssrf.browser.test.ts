import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfRenderer, type EgressDecision } from './index.ts';
import { solidPng } from './test-support/png.ts';
import { pdfImages, pdfText } from './test-support/poppler.ts';
import { startServer, type RecordingServer } from './test-support/servers.ts';

/**
 * Invariants 7 and 8 through the whole renderer: a canary on a private address that is not allowlisted (127.0.0.2)
 * is never reached, whatever part of a page points at it and however its address is spelled; an image on an
 * allowlisted address (127.0.0.1, standing in for the public web) is fetched and printed.
 */
const IMAGE = { width: 37, height: 23 };

const doc = (body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;

/** Every way a page can ask Chromium to fetch something, aimed at `base` (no trailing slash). */
function vectors(base: string, ws: string): string {
  return `
    <link rel="stylesheet" href="${base}/link.css">
    <link rel="icon" href="${base}/icon.png">
    <link rel="preload" as="image" href="${base}/preload.png">
    <link rel="prefetch" href="${base}/prefetch">
    <link rel="preconnect" href="${base}">
    <link rel="dns-prefetch" href="${base}">
    <meta http-equiv="refresh" content="0;url=${base}/refresh">
    <style>
      @import url("${base}/import.css");
      @font-face { font-family: Canary; src: url("${base}/font.woff2"); }
      .bg { background-image: url("${base}/css-url.png"); font-family: Canary; }
    </style>
    <h1 class="bg">SSRF probe</h1>
    <img src="${base}/img.png">
    <img srcset="${base}/srcset.png 2x">
    <picture><source srcset="${base}/picture.png"><img src="${base}/picture-fallback.png"></picture>
    <input type="image" src="${base}/input.png">
    <video poster="${base}/poster.png" src="${base}/video.mp4"></video>
    <audio src="${base}/audio.mp3" preload="auto"></audio>
    <object data="${base}/object"></object>
    <embed src="${base}/embed">
    <iframe src="${base}/iframe"></iframe>
    <svg width="10" height="10"><image href="${base}/svg-image.png" width="10" height="10"/></svg>
    <script>new WebSocket(${JSON.stringify(`${ws}/ws`)}); fetch(${JSON.stringify(`${base}/fetch`)});</script>
  `;
}

describe('the renderer never reaches a private address that is not allowlisted', () => {
  let canary: RecordingServer;
  let web: RecordingServer;
  const refused: EgressDecision[] = [];
  const renderer = new PdfRenderer({ pages: 2, allowPrivateHosts: ['127.0.0.1'], onRefused: (d) => refused.push(d) });

  beforeAll(async () => {
    canary = await startServer('127.0.0.2');
    web = await startServer('127.0.0.1', (req, res) => {
      if (req.url === '/ok.png') res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(IMAGE.width, IMAGE.height));
      else res.writeHead(404).end();
    });
    await renderer.start();
  });
  afterAll(async () => {
    await renderer.close();
    await canary.close();
    await web.close();
  });

  it('prints an image from an allowlisted host', async () => {
    const pdf = await renderer.render(doc(`<p>with image</p><img src="${web.origin}/ok.png">`), { pageSize: 'letter' });
    expect(web.paths).toContain('/ok.png');
    expect(await pdfImages(pdf)).toEqual([IMAGE]);
  });

  it('fetches nothing from the canary: no sub-resource, frame, font, refresh or WebSocket, however the address is spelled', async () => {
    const p = canary.port;
    const spellings = [
      `http://127.0.0.2:${p}`,
      `http://2130706434:${p}`, // 127.0.0.2 as one decimal number
      `http://0x7f000002:${p}`,
      `http://127.2:${p}`,
      `http://[::ffff:127.0.0.2]:${p}`, // IPv4-mapped IPv6
      `https://127.0.0.2:${p}`, // a CONNECT tunnel instead of a plain request
    ];
    for (const base of spellings) {
      const ws = base.replace(/^http/, 'ws');
      const html = doc(`${vectors(base, ws)}<img src="${web.origin}/ok.png">`);
      const pdf = await renderer.render(html, { pageSize: 'letter' });
      const text = await pdfText(pdf);
      expect(text, base).toContain('SSRF probe');
      expect(text, base).not.toMatch(/refused|private|127\.0\.0/); // a refusal tells the document nothing
      expect(await pdfImages(pdf), base).toContainEqual(IMAGE); // the allowlisted image still made it
    }
    expect(canary.connections()).toBe(0);
    expect(canary.paths).toEqual([]);
    // Chromium did try, and the boundary (not luck) said no: every refusal was the canary's address.
    expect(refused.length).toBeGreaterThan(spellings.length);
    expect(new Set(refused.map((d) => d.port))).toEqual(new Set([p]));
  });
});

describe('the probe itself', () => {
  it('does make Chromium fetch through each kind of reference (seen once the canary is allowlisted)', async () => {
    const target = await startServer('127.0.0.2');
    const renderer = new PdfRenderer({ pages: 1, allowPrivateHosts: ['127.0.0.2'] });
    try {
      const base = `http://127.0.0.2:${target.port}`;
      await renderer.render(doc(vectors(base, base.replace(/^http/, 'ws'))), { pageSize: 'letter' });
    } finally {
      await renderer.close();
      await target.close();
    }
    for (const path of ['/img.png', '/srcset.png', '/picture.png', '/css-url.png', '/import.css', '/link.css', '/font.woff2', '/svg-image.png', '/poster.png']) {
      expect(target.paths).toContain(path);
    }
    // Stopped by interception before the network: no document in a frame, no navigating the tab away.
    for (const path of ['/iframe', '/object', '/embed', '/refresh']) expect(target.paths).not.toContain(path);
  });
});

describe('a name that resolves to a private address is refused after resolution', () => {
  let canary: RecordingServer;

  beforeAll(async () => {
    // No name on this machine resolves to 127.0.0.2, but `localhost` resolves to loopback: a canary on 127.0.0.1
    // stands for "a private service reached through an innocent-looking name" (the renderer allowlists nothing).
    const addresses = (await lookup('localhost', { all: true })).map((a) => a.address);
    expect(addresses).toContain('127.0.0.1');
    canary = await startServer('127.0.0.1');
  });
  afterAll(() => canary.close());

  const probe = (): string => {
    // `app.localhost` is loopback by RFC 6761 (as browsers take it), though this host's resolver does not know it.
    const names = [`http://localhost:${canary.port}`, `http://LocalHost:${canary.port}`, `http://app.localhost:${canary.port}`];
    return doc(`<p>name probe</p>${names.map((n) => vectors(n, n.replace(/^http/, 'ws'))).join('')}`);
  };

  it('does not reach the service behind the name', async () => {
    const refused: EgressDecision[] = [];
    const renderer = new PdfRenderer({ pages: 1, onRefused: (d) => refused.push(d) });
    try {
      const pdf = await renderer.render(probe(), { pageSize: 'letter' });
      expect(await pdfText(pdf)).toContain('name probe');
    } finally {
      await renderer.close();
    }
    expect(canary.connections()).toBe(0);
    expect(refused.map((d) => d.host.toLowerCase().replace(/\.$/, ''))).toEqual(expect.arrayContaining(['localhost', 'app.localhost']));
    expect(refused.every((d) => /private or internal network \((127\.0\.0\.1|::1)/.test(d.refused ?? ''))).toBe(true);
  });

  it('reaches it once the name is allowlisted (so the probe above could have failed)', async () => {
    const renderer = new PdfRenderer({ pages: 1, allowPrivateHosts: ['localhost'] });
    try {
      await renderer.render(probe(), { pageSize: 'letter' });
    } finally {
      await renderer.close();
    }
    expect(canary.connections()).toBeGreaterThan(0);
    expect(canary.paths).toContain('/img.png');
  });
});
