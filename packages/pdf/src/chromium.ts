import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BrowserLaunchError } from './errors.ts';

/** Debian's `chromium-headless-shell`: half the memory and up to twice the speed of full Chromium for printing. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/** The full browser's binary; `/usr/bin/chromium` is a wrapper script that adds flags of its own. */
export const FULL_CHROMIUM = '/usr/lib/chromium/chromium';

/** CHROMIUM_PATH when set, else the headless shell, else full Chromium (which the error then names if it is missing too). */
export function defaultExecutablePath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) return configured;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}

/**
 * Flags for a Chromium whose only way out is the egress proxy. `<-loopback>` removes Chromium's built-in bypass of
 * localhost, so loopback addresses go through the proxy (and its policy) too; the resolver rules make every name and
 * every address but the proxy's unreachable inside Chromium, so even a path that skipped the proxy would lead nowhere.
 */
export function chromiumArgs(proxyPort: number): string[] {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return [
    ...(asRoot ? ['--no-sandbox'] : []), // Chromium refuses to start as root with its sandbox
    '--disable-gpu',
    // Nothing is ever shown: frames are produced only when asked for (never), so a tab does not lay out and raster its
    // viewport after every load only for printing to lay it out again, and the GPU work runs in the browser process
    // rather than a process of its own. Measured: 22 % less Chromium CPU a document, one process (≈38 MiB) fewer;
    // the PDF is byte-for-byte the same text, images and tags. (Screenshots would hang: nothing here takes one.)
    '--enable-begin-frame-control',
    '--in-process-gpu',
    '--disable-quic',
    '--disable-component-update',
    '--disable-background-networking',
    '--disable-domain-reliability',
    '--no-pings',
    '--block-new-web-contents',
    // Every frame in the tab's own process, where disabling JavaScript reaches it: puppeteer's setting does not reach
    // out-of-process frames, and under site isolation (full Chromium's default) a cross-site frame runs its scripts
    // (tried). Interception refuses frame documents as well; this keeps the guarantee if that ever lets one through.
    // It also saves a renderer process per frame.
    '--disable-site-isolation-trials',
    '--disable-features=IsolateOrigins,site-per-process',
    `--proxy-server=http://127.0.0.1:${proxyPort}`,
    '--proxy-bypass-list=<-loopback>',
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  ];
}

export interface ChromiumLaunch {
  executablePath: string;
  proxyPort: number;
}

/**
 * Starts Chromium talking DevTools over a pipe rather than a TCP port, so no other local process can drive it, and so
 * it exits when this process does. Signals are left to the host application's graceful shutdown.
 */
export async function launchChromium({ executablePath, proxyPort }: ChromiumLaunch): Promise<Browser> {
  const shell = path.basename(executablePath).includes('headless-shell');
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: shell ? 'shell' : true,
      pipe: true,
      args: chromiumArgs(proxyPort),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      protocolTimeout: 60_000,
      timeout: 30_000,
    });
  } catch (err) {
    throw new BrowserLaunchError(executablePath, { cause: err });
  }
  // The tab Chromium opens at start is never used: its renderer process would only hold memory.
  for (const tab of await browser.pages()) await tab.close().catch(() => {});
  return browser;
}
