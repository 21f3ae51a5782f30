import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The Chromium the renderer uses (Debian's headless shell), or full Chromium, or CHROMIUM_PATH. */
function executablePath(): string {
  const configured = process.env.CHROMIUM_PATH?.trim();
  if (configured) return configured;
  const shell = '/usr/lib/chromium/chromium-headless-shell';
  return fs.existsSync(shell) ? shell : '/usr/lib/chromium/chromium';
}

/**
 * A real Chromium with JavaScript *enabled*: the sanitiser must hold even in a renderer that forgot to disable it.
 * Every host name fails to resolve, so relative links resolved against `site.example` go nowhere quickly; only the
 * canary on 127.0.0.1 answers.
 */
export async function launchBrowser(): Promise<Browser> {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const path = executablePath();
  return puppeteer.launch({
    executablePath: path,
    headless: path.includes('headless-shell') ? 'shell' : true,
    pipe: true,
    args: [
      ...(asRoot ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-quic',
      '--disable-component-update',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
}

/** An HTTP server on 127.0.0.1 that records every request and answers from a small table of paths. */
export interface Canary {
  origin: string;
  hits: string[];
  /** What `/page` serves: the page under test comes from the canary's own origin, as a fetched article would. */
  page: string;
  close(): Promise<void>;
}

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export async function startCanary(routes: Record<string, { type: string; body: string | Buffer }> = {}): Promise<Canary> {
  const hits: string[] = [];
  const canary = { page: '' };
  const server = http.createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(canary.page);
      return;
    }
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) {
      res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' });
      res.end(route.body);
    } else if (req.url?.endsWith('.png')) {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      res.end(PNG_1X1);
    } else {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end('alert(1)');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(canary, {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** What a page did on its own: dialogs it opened, whether its main frame went somewhere else. */
export interface Effects {
  dialogs: string[];
  navigations: string[];
}

/**
 * Serves `html` from the canary, loads it into `page`, then clicks every link whose address is not plainly http(s)/mailto/tel/fragment (that is
 * how a `javascript:` link fires), and reports what happened.
 */
export async function effectsOf(page: Page, canary: Canary, html: string): Promise<Effects> {
  const effects: Effects = { dialogs: [], navigations: [] };
  const onDialog = (dialog: import('puppeteer-core').Dialog) => {
    effects.dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  };
  const onNavigated = (frame: import('puppeteer-core').Frame) => {
    if (frame === page.mainFrame()) effects.navigations.push(frame.url());
  };
  page.on('dialog', onDialog);
  try {
    canary.page = html;
    await page.goto('about:blank');
    page.on('framenavigated', onNavigated);
    await page.goto(`${canary.origin}/page`, { waitUntil: 'load', timeout: 10_000 }).catch(() => undefined);
    await page
      .evaluate(() => {
        for (const a of Array.from(document.querySelectorAll('a'))) {
          const href = a.getAttribute('href') ?? a.getAttribute('xlink:href');
          if (href !== null && !/^\s*(https?:|mailto:|tel:|#)/i.test(href)) {
            a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
          }
        }
      })
      .catch(() => undefined); // a page that navigated away mid-evaluation has shown what it does
    await new Promise((resolve) => setTimeout(resolve, 150));
  } finally {
    page.off('dialog', onDialog);
    page.off('framenavigated', onNavigated);
  }
  // Loading the page is the one expected navigation; anything else is the page moving itself.
  effects.navigations = effects.navigations.filter((url) => url !== `${canary.origin}/page`);
  return effects;
}
