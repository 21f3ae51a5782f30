import { beforeScrape, chromiumMetrics } from '@folio/metrics';
import { NetworkPolicy } from '@folio/network-policy';
import { TimeoutError } from 'puppeteer-core';
import { BrowserHost } from './browser-host.ts';
import { defaultExecutablePath, launchChromium } from './chromium.ts';
import { EgressProxy, type EgressDecision } from './egress-proxy.ts';
import { BrowserLaunchError, RenderCrashedError, RendererClosedError, RenderFailedError, RenderTimeoutError } from './errors.ts';
import { processTreeMemory } from './memory.ts';
import { pageSizeOf, printOptions, printsTagged, type PageSize } from './print-options.ts';
import { closePrintPage, openPrintPage, type PrintPage } from './print-page.ts';
import { PoolClosedError, WarmPool, type Lease } from './warm-pool.ts';

export interface PdfOptions {
  pageSize: PageSize;
  /** The whole budget of one render, waiting for a free page included (default 20 s). */
  timeoutMs?: number;
}

export interface PdfRendererOptions {
  /** Default: CHROMIUM_PATH, else /usr/lib/chromium/chromium-headless-shell, else /usr/lib/chromium/chromium. */
  executablePath?: string;
  /** Warm pages kept, and so renders at once (default 4; more only adds latency and memory on 2 cores). */
  pages?: number;
  /** Renders before a page is replaced (default 200). */
  recycleAfter?: number;
  /**
   * Memory Chromium may hold, all its processes together (their proportional set size as `processTreeMemory`
   * estimates it, MiB; default 1024). Past it, the tab that printed the largest document is replaced (idle at once,
   * busy when its render ends), one per check, until Chromium is back under the budget. Linux only (read from /proc); elsewhere only `recycleAfter` applies.
   */
  memoryBudgetMb?: number;
  /** How often memory is looked at, at most (default 1000 ms; it costs a few /proc reads, 1–2 ms). */
  memoryCheckIntervalMs?: number;
  /** FOLIO_ALLOW_PRIVATE_HOSTS entries (exact hosts, addresses, CIDR ranges) Chromium may reach although private. */
  allowPrivateHosts?: string[];
  /** Sees each connection the network boundary refused (for logs and metrics). */
  onRefused?: (decision: EgressDecision) => void;
}

export const DEFAULT_TIMEOUT_MS = 20_000;

/** One render's input and its time budget. */
interface Job {
  html: string;
  pageSize: PageSize;
  timeoutMs: number;
  deadline: number;
  budget: AbortSignal;
}

/**
 * Chromium died under a render: its tab crashed or the whole browser went away. Either may be another document's
 * doing (a tab that crashed while idle, a browser brought down by a neighbour) or the system's (OOM killer), so the
 * render is tried once more on a fresh tab; a document that crashes Chromium again fails with RenderCrashedError.
 */
class ChromiumLostError extends Error {
  readonly what: 'tab' | 'browser';
  constructor(what: 'tab' | 'browser', cause: unknown) {
    super(`Chromium's ${what} went away`, { cause });
    this.what = what;
  }
}

/**
 * HTML to PDF with warm Chromium pages behind a network boundary. Every connection Chromium makes goes through an
 * in-process egress proxy that refuses private addresses after resolving names itself; pages run without JavaScript
 * and may load only http(s) and data: URLs. Pages are kept warm, replaced after `recycleAfter` renders or when they
 * crash; a browser that dies is restarted. A render that loses its tab or browser is tried once more on a fresh tab,
 * so a crash fails at most the render that keeps causing it.
 */
export class PdfRenderer {
  private readonly executablePath: string;
  private readonly proxy: EgressProxy;
  private readonly host: BrowserHost;
  private readonly pool: WarmPool<PrintPage>;
  private starting?: Promise<void>;
  private closing?: Promise<void>;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly pages = new Set<PrintPage>();
  private readonly memoryBudgetBytes: number;
  private readonly memoryCheckIntervalMs: number;
  private memoryCheckedAt = 0;
  private memory = { lastBytes: null as number | null, retired: 0 };
  private readonly stopMetrics: () => void;

  constructor(options: PdfRendererOptions = {}) {
    this.executablePath = options.executablePath ?? defaultExecutablePath();
    this.proxy = new EgressProxy({ policy: new NetworkPolicy(options.allowPrivateHosts ?? []), onRefused: options.onRefused });
    this.host = new BrowserHost(
      () => launchChromium({ executablePath: this.executablePath, proxyPort: this.proxy.port }),
      () => {
        chromiumMetrics().restarts.inc({ what: 'browser', reason: 'lost' });
        this.pool.refreshIdle();
      },
    );
    this.pool = new WarmPool<PrintPage>(
      {
        create: async () => {
          const page = await openPrintPage(await this.host.browser(), () => this.pool.refreshIdle());
          this.pages.add(page);
          return page;
        },
        destroy: (page) => {
          this.pages.delete(page);
          return closePrintPage(page);
        },
        usable: (p) => !p.crashed && !p.retired && !p.page.isClosed() && this.host.isLive(p.browser),
      },
      { size: options.pages ?? 4, recycleAfter: options.recycleAfter ?? 200 },
    );
    this.memoryBudgetBytes = (options.memoryBudgetMb ?? 1024) * 2 ** 20;
    this.memoryCheckIntervalMs = options.memoryCheckIntervalMs ?? 1000;
    this.stopMetrics = beforeScrape(() => {
      const metrics = chromiumMetrics();
      const { busy, warm } = this.pool.stats();
      metrics.tabs.set({ state: 'busy' }, busy);
      metrics.tabs.set({ state: 'idle' }, Math.max(0, warm - busy));
      if (this.memory.lastBytes !== null) metrics.memory.set(this.memory.lastBytes);
    });
  }

  /** Starts the proxy and Chromium and warms the pages; a missing browser fails here (BrowserLaunchError). */
  start(): Promise<void> {
    if (this.closing) return Promise.reject(new RendererClosedError());
    this.starting ??= (async () => {
      await this.proxy.listen();
      await this.pool.warm();
    })().catch((err: unknown) => {
      this.starting = undefined; // the next call tries again (e.g. after Chromium was installed)
      throw err;
    });
    return this.starting;
  }

  /**
   * Prints a complete, already-sanitised page. Rejects with RenderTimeoutError past the budget, RenderCrashedError,
   * BrowserLaunchError, RendererClosedError, or RenderFailedError (anything else Chromium said, as its cause).
   */
  async render(html: string, options: PdfOptions): Promise<Buffer> {
    if (this.closing) throw new RendererClosedError();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const job: Job = { html, pageSize: pageSizeOf(options.pageSize), timeoutMs, deadline: Date.now() + timeoutMs, budget: AbortSignal.timeout(timeoutMs) };
    const work = (async () => {
      await this.start();
      try {
        return await this.renderOnce(job, false);
      } catch (err) {
        if (!(err instanceof ChromiumLostError) || job.budget.aborted) throw err;
        // On a new tab: a warm one may have died in the same incident without Chromium having said so yet.
        return await this.renderOnce(job, true).catch((again: unknown) => {
          if (!(again instanceof ChromiumLostError)) throw again;
          throw new RenderCrashedError(`Chromium's ${again.what} crashed twice while rendering this document`, { cause: again.cause });
        });
      }
    })();
    this.inFlight.add(work);
    try {
      return await withBudget(work, job.budget, timeoutMs);
    } catch (err) {
      throw typed(err);
    } finally {
      this.inFlight.delete(work);
    }
  }

  /** Counts for metrics and tests: Chromium's memory when last looked at, and the tabs replaced to bring it down. */
  stats(): { memoryBytes: number | null; retiredForMemory: number } {
    return { memoryBytes: this.memory.lastBytes, retiredForMemory: this.memory.retired };
  }

  /** Refuses new renders, lets the ones under way finish (each within its budget), then stops Chromium and the proxy. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopMetrics();
      await Promise.allSettled([...this.inFlight]);
      await this.starting?.catch(() => {});
      await this.pool.close();
      await this.host.close();
      await this.proxy.close();
    })();
    return this.closing;
  }

  private async renderOnce(job: Job, fresh: boolean): Promise<Buffer> {
    const lease = await this.pool.acquire({ signal: job.budget, fresh });
    let broken = true;
    try {
      const { page, crash } = lease.resource;
      const print = (async () => {
        await page.setContent(job.html, { waitUntil: 'load', timeout: remaining(job.deadline) });
        return Buffer.from(await page.pdf(printOptions(job.pageSize, remaining(job.deadline), printsTagged(job.html))));
      })();
      print.catch(() => {}); // when the budget or a crash wins the race, the page is discarded and this fails late
      const pdf = await Promise.race([print, crash, aborted(job.budget)]);
      broken = false;
      return pdf;
    } catch (err) {
      throw this.explain(err, lease, job);
    } finally {
      lease.resource.largestDocument = Math.max(lease.resource.largestDocument, job.html.length);
      this.pool.release(lease, broken);
      this.keepWithinMemory(); // after the tab is back: the check reads /proc, and a retired idle tab is replaced at once
    }
  }

  /**
   * Renderer processes keep what the largest document they printed made them allocate (≈140 MiB a tab after
   * 8,000-word articles, from ≈22 MiB fresh). Over the budget, the tab that printed the largest document is retired:
   * replaced at once when idle, when its render ends otherwise. One per check, so the next check sees the effect.
   */
  private keepWithinMemory(): void {
    const now = Date.now();
    if (now - this.memoryCheckedAt < this.memoryCheckIntervalMs) return;
    this.memoryCheckedAt = now;
    const pid = this.host.pid();
    const bytes = pid === undefined ? null : processTreeMemory(pid);
    this.memory.lastBytes = bytes;
    if (bytes === null || bytes <= this.memoryBudgetBytes) return;
    let largest: PrintPage | undefined;
    for (const page of this.pages) {
      if (!page.retired && (!largest || page.largestDocument > largest.largestDocument)) largest = page;
    }
    if (!largest) return;
    largest.retired = true;
    this.memory.retired += 1;
    chromiumMetrics().restarts.inc({ what: 'tab', reason: 'memory' });
    this.pool.refreshIdle();
  }

  /** Why a render failed: out of time, or Chromium lost under it (worth one more try), or the error itself. */
  private explain(err: unknown, lease: Lease<PrintPage>, job: Job): unknown {
    // Puppeteer's own timers run to the same deadline and may fire a moment before the budget's.
    if (job.budget.aborted || err instanceof TimeoutError) return new RenderTimeoutError(job.timeoutMs);
    const { crashed, browser } = lease.resource;
    if (crashed) return new ChromiumLostError('tab', crashed);
    if (!this.host.isLive(browser)) return new ChromiumLostError('browser', err);
    return err;
  }
}

const TYPED = [RenderTimeoutError, RenderCrashedError, BrowserLaunchError, RendererClosedError, RenderFailedError];

/** Every failure as one of the package's errors, so callers can map them to job errors without guessing. */
function typed(err: unknown): Error {
  if (err instanceof PoolClosedError) return new RendererClosedError();
  if (TYPED.some((type) => err instanceof type)) return err as Error;
  return new RenderFailedError({ cause: err });
}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

/** A promise that rejects when the budget runs out. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The render's own result, unless the budget runs out first: then RenderTimeoutError, whatever the work was doing. */
async function withBudget<T>(work: Promise<T>, budget: AbortSignal, timeoutMs: number): Promise<T> {
  try {
    return await Promise.race([work, aborted(budget)]);
  } catch (err) {
    if (budget.aborted) throw new RenderTimeoutError(timeoutMs);
    throw err;
  }
}
