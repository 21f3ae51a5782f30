import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A paragraph of an ordinary news story, and a short article page of it that extraction keeps whole. */
export const STORY = '<p>The harbour commission met on Tuesday to weigh a plan that would rebuild the old sea wall before the winter storms arrive.</p>';
export const STORY_PAGE = `<html><head><title>Sea wall</title></head><body><article><h1>Sea wall</h1>${STORY.repeat(4)}</article></body></html>`;

/** A page a test site serves: its media type and body. */
export type Page = { type: string; body: string | Buffer };

/**
 * A real HTTP site on loopback serving fixed pages by path (404 for anything else). 127.0.0.1 stands in for the
 * public web when the stack allowlists it (FOLIO_ALLOW_PRIVATE_HOSTS); another loopback address stays private.
 */
export async function servePages(pages: Record<string, Page>, host = '127.0.0.1'): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const page = pages[req.url ?? '/'];
    if (!page) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', page.type);
    res.end(page.body);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}
