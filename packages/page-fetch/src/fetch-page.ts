import type { Agent } from 'undici';
import { request } from 'undici';
import type { NetworkPolicy } from '@folio/network-policy';
import { decode, detectCharset } from './charset.ts';
import { BlockedAddressError, guardedAgent, literalAllowed } from '@folio/network-policy';

export interface FetchedPage {
  /** Where the page was finally found, after redirects. */
  url: string;
  html: string;
  charset: string;
  bytes: number;
}

export type PageFetchErrorCode = 'fetch_failed' | 'html_too_large' | 'parse_failed' | 'invalid_parameters';

/** Why a page could not be had, with the interface's error code and whether trying again could help. */
export class PageFetchError extends Error {
  readonly code: PageFetchErrorCode;
  readonly retryable: boolean;
  constructor(
    code: PageFetchErrorCode,
    message: string,
    retryable: boolean,
  ) {
    super(message);
    this.code = code;
    this.retryable = retryable;
    this.name = 'PageFetchError';
  }
}

export interface PageFetcherOptions {
  policy: NetworkPolicy;
  /** Largest page body accepted (bytes). */
  maxBytes?: number;
  /** Whole budget of one fetch, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const KNOWN_NON_HTML: Array<[RegExp, string]> = [
  [/^application\/pdf/i, 'a PDF document'],
  [/^image\//i, 'an image'],
  [/^text\/plain/i, 'a plain-text file'],
  [/^(audio|video)\//i, 'a media file'],
];

/**
 * Fetches web pages for conversion: http(s) only, a bounded number of redirects with every hop's connection checked
 * against the private-network rule on its resolved address, the page's own charset honoured, a size cap and a time
 * budget. Non-HTML media are refused with a clear message.
 */
export class PageFetcher {
  private readonly agent: Agent;
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly maxRedirects: number;
  private readonly userAgent: string;

  private readonly options: PageFetcherOptions;
  constructor(options: PageFetcherOptions) {
    this.options = options;
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.userAgent = options.userAgent ?? 'Mozilla/5.0 (compatible; Folio/1.0; +https://folio.dev/bot)';
    this.agent = guardedAgent(options.policy, { connectTimeoutMs: Math.min(5000, this.timeoutMs) });
  }

  /** A web page, decoded in its own charset. */
  async fetch(address: string): Promise<FetchedPage> {
    const { url, bytes, contentType } = await this.load(address, {
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      maxBytes: this.maxBytes,
      refuse: (type) => {
        if (!type || HTML_TYPES.test(type)) return null;
        const kind = KNOWN_NON_HTML.find(([pattern]) => pattern.test(type))?.[1] ?? `${type.split(';')[0]} content`;
        return new PageFetchError('parse_failed', `the address is ${kind}, not a web page; only web pages can be converted`, false);
      },
    });
    const charset = detectCharset(contentType, bytes);
    return { url, html: decode(bytes, charset), charset, bytes: bytes.length };
  }

  /** An image to embed (docx), under the same network rule; null when it cannot be had. */
  async fetchImage(address: string, maxBytes = 5 * 1024 * 1024): Promise<{ data: Buffer; contentType: string } | null> {
    try {
      const { bytes, contentType } = await this.load(address, {
        accept: 'image/png,image/jpeg,image/gif,image/*;q=0.8',
        maxBytes,
        refuse: (type) => (type && /^image\//i.test(type) ? null : new PageFetchError('parse_failed', 'not an image', false)),
      });
      return { data: bytes, contentType: contentType! };
    } catch {
      return null;
    }
  }

  private async load(
    address: string,
    want: { accept: string; maxBytes: number; refuse: (contentType: string | null) => PageFetchError | null },
  ): Promise<{ url: string; bytes: Buffer; contentType: string | null }> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    let url = parseHttpUrl(address);
    for (let hop = 0; ; hop++) {
      if (!literalAllowed(this.options.policy, url.hostname)) {
        throw new PageFetchError('invalid_parameters', `url: ${url.host} is a private or internal address`, false);
      }
      let response;
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: this.agent,
          signal: deadline,
          headers: { 'user-agent': this.userAgent, accept: want.accept, 'accept-language': 'en;q=0.9, *;q=0.5' },
        });
      } catch (error) {
        throw failure(error, url, this.timeoutMs);
      }
      const { statusCode, headers, body } = response;
      if (statusCode >= 300 && statusCode < 400 && headers.location) {
        await body.dump().catch(() => {});
        if (hop >= this.maxRedirects) throw new PageFetchError('fetch_failed', `more than ${this.maxRedirects} redirects`, true);
        url = parseHttpUrl(new URL(String(headers.location), url).href);
        continue;
      }
      if (statusCode >= 400) {
        await body.dump().catch(() => {});
        const blocked = statusCode === 401 || statusCode === 403 || statusCode === 429;
        throw new PageFetchError('fetch_failed', `the page answered HTTP ${statusCode}${blocked ? ' (the site is blocking)' : ''}`, true);
      }
      const contentType = headerValue(headers['content-type']) ?? null;
      const refused = want.refuse(contentType);
      if (refused) {
        await body.dump().catch(() => {});
        throw refused;
      }
      const declared = Number(headerValue(headers['content-length']) ?? NaN);
      if (declared > want.maxBytes) {
        await body.dump().catch(() => {});
        throw new PageFetchError('html_too_large', `the page is ${declared} bytes; the limit is ${want.maxBytes}`, false);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of body) {
          size += (chunk as Buffer).length;
          if (size > want.maxBytes) {
            body.destroy();
            throw new PageFetchError('html_too_large', `the page is larger than ${want.maxBytes} bytes`, false);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        if (error instanceof PageFetchError) throw error;
        throw failure(error, url, this.timeoutMs);
      }
      return { url: url.href, bytes: Buffer.concat(chunks), contentType };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function parseHttpUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new PageFetchError('invalid_parameters', `${address} is not a URL`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PageFetchError('invalid_parameters', `${url.protocol} addresses cannot be fetched; use http or https`, false);
  }
  url.hash = '';
  return url;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function failure(error: unknown, url: URL, timeoutMs: number): PageFetchError {
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof BlockedAddressError || (error as Error).message?.includes('private or internal')) {
    return new PageFetchError('invalid_parameters', `url: ${url.host} resolves to a private or internal address`, false);
  }
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new PageFetchError('fetch_failed', `the page did not answer within ${timeoutMs / 1000} seconds`, true);
  }
  const code = (cause as NodeJS.ErrnoException).code ?? (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new PageFetchError('fetch_failed', `${url.hostname} could not be resolved`, true);
  return new PageFetchError('fetch_failed', `the page could not be loaded (${code ?? (error as Error).message})`, true);
}
