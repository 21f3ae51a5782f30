import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { defaultExecutablePath } from '@folio/pdf';
import { bundleSdk } from '../packages/sdk/scripts/bundle.ts';
import { Stack } from './support/stack.ts';

/**
 * @folio/sdk in a real browser: bundled for the browser as a web app's bundler would, loaded by a page on a web
 * origin the stack allows (FOLIO_CORS_ORIGINS), calling the API on another origin. A page on an origin the stack
 * does not name gets nothing through.
 */

/** A site serving one page and the bundled SDK. */
async function serveSite(sdk: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.setHeader('content-type', 'text/javascript');
      return res.end(sdk);
    }
    res.setHeader('content-type', 'text/html');
    // The app imports the SDK as a module, as a bundled app would, and hands it to the test as window.sdk.
    res.end('<!doctype html><title>app</title><script type="module">import * as sdk from "/sdk.js"; window.sdk = sdk;</script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('@folio/sdk in a browser', () => {
  let stack: Stack;
  let key: string;
  let allowed: Awaited<ReturnType<typeof serveSite>>;
  let elsewhere: Awaited<ReturnType<typeof serveSite>>;
  let browser: Browser;

  beforeAll(async () => {
    const sdk = await bundleSdk("export * from './index.ts';");
    [allowed, elsewhere] = await Promise.all([serveSite(sdk), serveSite(sdk)]);
    stack = await Stack.start({ env: { FOLIO_CORS_ORIGINS: allowed.origin } });
    key = await stack.createKey('paid');
    const executablePath = defaultExecutablePath();
    browser = await puppeteer.launch({
      executablePath,
      headless: executablePath.includes('headless-shell') ? 'shell' : true,
      args: typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : [],
    });
  });
  afterAll(async () => {
    await browser?.close();
    allowed?.server.close();
    elsewhere?.server.close();
    await stack?.stop();
  });

  async function pageAt(origin: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'sdk' in window);
    return page;
  }

  it('converts, runs a job to its end and reads typed errors from a page on an allowed origin', async () => {
    const page = await pageAt(allowed.origin);
    const outcome = await page.evaluate(
      async (baseUrl, apiKey) => {
        const { Folio, FolioError } = (window as unknown as { sdk: typeof import('@folio/sdk') }).sdk;
        const folio = new Folio({ apiKey, baseUrl });
        const text = await folio.convert({ markdown: '# In a browser\n\nConverted from a web page.', output: 'text' });
        const accepted = await folio.convertAsync({ markdown: '# Later', output: 'html' });
        const job = await folio.jobs.wait(accepted.job_id, { timeoutMs: 60_000 });
        const errorOf = (call: Promise<unknown>) =>
          call.then(
            () => null,
            (e: InstanceType<typeof FolioError>) => ({ name: e.name, code: e.code, status: e.status, requestId: typeof e.requestId }),
          );
        return {
          text: text.content,
          job: job.status,
          missing: await errorOf(folio.jobs.get('00000000-0000-7000-8000-000000000000')),
          badKey: await errorOf(new Folio({ apiKey: 'folio_not-a-key', baseUrl, maxRetries: 0 }).convert({ markdown: 'x', output: 'text' })),
        };
      },
      stack.url,
      key,
    );
    expect(outcome).toEqual({
      text: expect.stringContaining('Converted from a web page.'),
      job: 'succeeded',
      missing: { name: 'FolioError', code: 'job_not_found', status: 404, requestId: 'string' },
      badKey: { name: 'FolioError', code: 'invalid_api_key', status: 401, requestId: 'string' },
    });
    await page.close();
  });

  it('answers a preflight without a key or a budget, naming what the SDK sends and reads', async () => {
    const preflight = await fetch(`${stack.url}/v2/convert`, {
      method: 'OPTIONS',
      headers: { origin: allowed.origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed.origin);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    const answer = await fetch(`${stack.url}/v2/jobs/00000000-0000-7000-8000-000000000000`, { headers: { origin: allowed.origin } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('retry-after');
  });

  it('gives a page on another origin nothing: the browser refuses, and the SDK says it could not reach the API', async () => {
    const page = await pageAt(elsewhere.origin);
    const outcome = await page.evaluate(
      async (baseUrl, apiKey) => {
        const { Folio } = (window as unknown as { sdk: typeof import('@folio/sdk') }).sdk;
        return new Folio({ apiKey, baseUrl, maxRetries: 0 }).convert({ markdown: 'x', output: 'text' }).then(
          () => 'converted',
          (e: { code: string }) => e.code,
        );
      },
      stack.url,
      key,
    );
    expect(outcome).toBe('connection_failed');
    const preflight = await fetch(`${stack.url}/v2/convert`, {
      method: 'OPTIONS',
      headers: { origin: elsewhere.origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    await page.close();
  });
});
