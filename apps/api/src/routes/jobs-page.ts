import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';

/** The page's files, read once at start: they ship with the API. */
const FILES = {
  '/jobs': { type: 'text/html; charset=utf-8', body: read('page.html') },
  '/jobs/page.js': { type: 'text/javascript; charset=utf-8', body: read('page.js') },
  '/jobs/page.css': { type: 'text/css; charset=utf-8', body: read('page.css') },
};

function read(name: string): string {
  return readFileSync(new URL(`../jobs-page/${name}`, import.meta.url), 'utf8');
}

/**
 * The page only: its own script and stylesheet, calls to this origin, nothing inline, no framing. What the API
 * answers is put on the page as text, and this policy would stop a script that got in anyway.
 */
const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * GET /jobs: a page listing a key's recent jobs and the event history of the one selected, for people (operators
 * and the key's owner). The page itself needs no key: the key is typed into it and sent, as a bearer token, only with
 * its calls to GET /v2/jobs and GET /v2/jobs/{id}/events, which enforce it. Not part of the interface's document.
 */
export async function jobsPageRoutes(app: FastifyInstance): Promise<void> {
  for (const [path, file] of Object.entries(FILES)) {
    app.get(path, { config: { auth: false }, schema: { hide: true } as object }, async (_request, reply) =>
      reply
        .header('content-type', file.type)
        .header('content-security-policy', POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(file.body),
    );
  }
}
