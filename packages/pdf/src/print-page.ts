import type { Browser, HTTPRequest, Page } from 'puppeteer-core';

/** The only schemes a document may load. `data:` never reaches interception (Chromium serves it in-process). */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'data:']);

/** A Chromium tab locked down for printing untrusted HTML, and what became of it. */
export interface PrintPage {
  readonly page: Page;
  readonly browser: Browser;
  /** Set when the tab's renderer process died. */
  crashed?: Error;
  /** Rejects when the tab crashes; `render` races its work against it, since a crashed tab never answers. */
  readonly crash: Promise<never>;
  /** Characters of the largest document printed in this tab: what its renderer process has grown to hold. */
  largestDocument: number;
  /** Set when the tab is to be replaced at the first chance (Chromium over its memory budget). */
  retired?: boolean;
}

/**
 * Opens a tab with JavaScript disabled (invariant 8, docs/invariants.md) and request interception as an allow-list:
 * only http(s) and data: sub-resources, no document loaded into a frame, and the document may not navigate its own tab
 * away (`<meta http-equiv=refresh>`). This is defence in depth; the network boundary itself is the egress proxy every
 * request goes through. Opening is bounded in time: a tab given a renderer process that is dying would otherwise hang
 * until the protocol timeout.
 */
export async function openPrintPage(browser: Browser, onCrash: () => void = () => {}, timeoutMs = 10_000): Promise<PrintPage> {
  const opening = open(browser, onCrash);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`opening a Chromium tab took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([opening, late]);
  } catch (err) {
    opening.then(closePrintPage, () => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function open(browser: Browser, onCrash: () => void): Promise<PrintPage> {
  const page = await browser.newPage();
  try {
    let rejectCrash: (err: Error) => void = () => {};
    const crash = new Promise<never>((_, reject) => {
      rejectCrash = reject;
    });
    crash.catch(() => {}); // observed by `render` when it matters
    const printPage: PrintPage = { page, browser, crash, largestDocument: 0 };
    page.on('error', (err) => {
      printPage.crashed = err;
      rejectCrash(err);
      onCrash();
    });
    page.on('request', (request) => allowOrBlock(page, request));
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    return printPage;
  } catch (err) {
    await page.close().catch(() => {});
    throw err;
  }
}

function allowOrBlock(page: Page, request: HTTPRequest): void {
  if (request.isInterceptResolutionHandled()) return;
  const url = request.url();
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  let decision: Promise<void>;
  if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
    // A 204 cancels a navigation and leaves the document in place; aborting it would print Chromium's error page.
    decision = request.respond({ status: 204, body: '' });
  } else if (request.isNavigationRequest() || !ALLOWED_SCHEMES.has(scheme)) {
    // No other document is loaded into frames (the sanitiser keeps no iframe/object/embed anyway): nothing but ours.
    decision = request.abort('blockedbyclient');
  } else {
    decision = request.continue();
  }
  decision.catch(() => {}); // the tab may have gone meanwhile
}

export async function closePrintPage(printPage: PrintPage): Promise<void> {
  await printPage.page.close().catch(() => {});
}
