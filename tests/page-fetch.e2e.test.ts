import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NetworkPolicy } from '@folio/network-policy';
import { PageFetcher, type PageFetchError } from '@folio/page-fetch';

/** Real HTTP servers on loopback: 127.0.0.1 stands in for the public web (allowlisted), 127.0.0.2 is a private canary. */
function serve(host: string, handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, host, () => resolve({ server, origin: `http://${host}:${(server.address() as AddressInfo).port}` })));
}

describe('fetching pages', () => {
  let site: { server: Server; origin: string };
  let canary: { server: Server; origin: string };
  let canaryHits = 0;
  const fetcher = new PageFetcher({ policy: new NetworkPolicy(['127.0.0.1']), maxBytes: 64 * 1024, timeoutMs: 1500, maxRedirects: 3 });

  beforeAll(async () => {
    canary = await serve('127.0.0.2', (_req, res) => {
      canaryHits++;
      res.end('<html><body>secret</body></html>');
    });
    site = await serve('127.0.0.1', (req, res) => {
      const path = req.url ?? '/';
      if (path === '/cp1251') {
        res.setHeader('content-type', 'text/html; charset=windows-1251');
        return res.end(Buffer.from([0x3c, 0x70, 0x3e, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x3c, 0x2f, 0x70, 0x3e])); // <p>Привет</p>
      }
      if (path === '/meta-latin1') {
        res.setHeader('content-type', 'text/html');
        return res.end(Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]));
      }
      if (path === '/to-canary') {
        res.writeHead(302, { location: `${canary.origin}/` });
        return res.end();
      }
      if (path.startsWith('/hop/')) {
        const n = Number(path.slice(5));
        res.writeHead(301, { location: n > 0 ? `/hop/${n - 1}` : '/page' });
        return res.end();
      }
      if (path === '/page') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end('<html><body><article><p>Hello ✓</p></article></body></html>');
      }
      if (path === '/doc.pdf') {
        res.setHeader('content-type', 'application/pdf');
        return res.end('%PDF-1.7');
      }
      if (path === '/huge') {
        res.setHeader('content-type', 'text/html');
        res.write('<p>');
        const chunk = 'x'.repeat(16 * 1024);
        for (let i = 0; i < 10; i++) res.write(chunk);
        return res.end('</p>');
      }
      if (path === '/slow') {
        setTimeout(() => res.end('<p>late</p>'), 5000).unref();
        return;
      }
      if (path === '/pixel.png') {
        res.setHeader('content-type', 'image/png');
        return res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
      }
      if (path === '/gone') {
        res.statusCode = 404;
        return res.end('nope');
      }
      res.statusCode = 500;
      res.end();
    });
  });
  afterAll(async () => {
    await fetcher.close();
    site?.server.close();
    canary?.server.close();
  });

  const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable(), (e: PageFetchError) => e);

  it('fetches a page and honours its charset, from the header or from a meta tag', async () => {
    expect((await fetcher.fetch(`${site.origin}/cp1251`)).html).toBe('<p>Привет</p>');
    const latin = await fetcher.fetch(`${site.origin}/meta-latin1`);
    expect(latin.charset).toBe('iso-8859-1');
    expect(latin.html).toContain('café');
  });

  it('follows a bounded number of redirects and reports where the page was found', async () => {
    const page = await fetcher.fetch(`${site.origin}/hop/2`);
    expect(page.url).toBe(`${site.origin}/page`);
    expect(page.html).toContain('Hello ✓');
    expect(await failure(fetcher.fetch(`${site.origin}/hop/5`))).toMatchObject({ code: 'fetch_failed', retryable: true });
  });

  it('never reaches a private address: not directly, not through a redirect, not through a name', async () => {
    expect(await failure(fetcher.fetch(`${canary.origin}/`))).toMatchObject({ code: 'invalid_parameters', message: expect.stringMatching(/^url: /) });
    expect(await failure(fetcher.fetch(`${site.origin}/to-canary`))).toMatchObject({ code: 'invalid_parameters' });
    // localhost resolves to a loopback address; only the exact address 127.0.0.1 is allowlisted here, not the name…
    const strict = new PageFetcher({ policy: new NetworkPolicy([]), timeoutMs: 1500 });
    const port = new URL(site.origin).port;
    expect(await failure(strict.fetch(`http://localhost:${port}/page`))).toMatchObject({ code: 'invalid_parameters' });
    // …nor the names RFC 6761 keeps for loopback, which this host's resolver does not know.
    expect(await failure(strict.fetch(`http://app.localhost.:${port}/page`))).toMatchObject({ code: 'invalid_parameters' });
    await strict.close();
    expect(canaryHits).toBe(0);
  });

  it('refuses what is not a web page, pages too large, and addresses that are not http(s)', async () => {
    const pdf = await failure(fetcher.fetch(`${site.origin}/doc.pdf`));
    expect(pdf).toMatchObject({ code: 'parse_failed', retryable: false });
    expect(pdf.message).toContain('PDF');
    expect(await failure(fetcher.fetch(`${site.origin}/huge`))).toMatchObject({ code: 'html_too_large' });
    expect(await failure(fetcher.fetch('file:///etc/passwd'))).toMatchObject({ code: 'invalid_parameters' });
  });

  it('fetches images for embedding under the same rule, and gives null for anything else', async () => {
    const image = await fetcher.fetchImage(`${site.origin}/pixel.png`);
    expect(image).toEqual({ data: Buffer.from('89504e470d0a1a0a', 'hex'), contentType: 'image/png' });
    expect(await fetcher.fetchImage(`${site.origin}/page`)).toBeNull();
    expect(await fetcher.fetchImage(`${canary.origin}/pixel.png`)).toBeNull();
    expect(canaryHits).toBe(0);
  });

  it('reports a slow, missing or failing page as fetch_failed, retryable', async () => {
    expect(await failure(fetcher.fetch(`${site.origin}/slow`))).toMatchObject({ code: 'fetch_failed', retryable: true });
    expect(await failure(fetcher.fetch(`${site.origin}/gone`))).toMatchObject({ code: 'fetch_failed', retryable: true });
    expect(await failure(fetcher.fetch(`${site.origin}/error`))).toMatchObject({ code: 'fetch_failed', retryable: true });
    expect(await failure(fetcher.fetch('http://no-such-host.invalid/'))).toMatchObject({ code: 'fetch_failed' });
  });
});
