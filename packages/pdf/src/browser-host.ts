import type { Browser } from 'puppeteer-core';

/**
 * Keeps one Chromium running. When it goes away (crash, OOM kill) the next caller gets a fresh one; concurrent callers
 * share a single relaunch. `onLost` lets the owner react at once (e.g. re-warm its pages in the background).
 */
export class BrowserHost {
  private current?: Browser;
  private launching?: Promise<Browser>;
  private closed = false;

  private readonly launch: () => Promise<Browser>;
  private readonly onLost: () => void;
  constructor(
    launch: () => Promise<Browser>,
    onLost: () => void = () => {},
  ) {
    this.launch = launch;
    this.onLost = onLost;
  }

  /** The running browser, started (or restarted) if needed. */
  async browser(): Promise<Browser> {
    if (this.closed) throw new Error('the browser host is closed');
    if (this.current?.connected) return this.current;
    this.launching ??= this.launch()
      .then((browser) => {
        if (this.closed) {
          void browser.close().catch(() => {});
          throw new Error('the browser host is closed');
        }
        this.current = browser;
        browser.once('disconnected', () => {
          if (this.current !== browser) return;
          this.current = undefined;
          if (!this.closed) this.onLost();
        });
        return browser;
      })
      .finally(() => {
        this.launching = undefined;
      });
    return this.launching;
  }

  /** The running browser's process id, if one is running. */
  pid(): number | undefined {
    return this.current?.connected ? this.current.process()?.pid : undefined;
  }

  /** Whether `browser` is the live one (pages of a dead or replaced browser cannot serve). */
  isLive(browser: Browser): boolean {
    return browser === this.current && browser.connected;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.current ?? (await this.launching?.catch(() => undefined));
    this.current = undefined;
    if (!browser) return;
    await browser.close().catch(() => {
      browser.process()?.kill('SIGKILL');
    });
  }
}
