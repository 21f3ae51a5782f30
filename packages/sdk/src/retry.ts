import { FolioError } from './errors.ts';

export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  /** First backoff step; each retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/**
 * Whether a failed attempt is worth repeating: a connection that failed or timed out, a 429, and every error the API
 * itself calls retryable (fetch_failed, render_timeout, render_failed, a 5xx). Never a refusal that would only repeat
 * (bad parameters, a bad key, no quota).
 */
export function isRetryable(error: FolioError): boolean {
  return error.retryable || error.status === 429 || error.code === 'connection_failed' || error.code === 'timeout';
}

/**
 * How long to wait before retry number `retry` (1 for the first). The server's Retry-After wins when it gave one: it
 * knows when its budget refills, and coming back sooner only spends a retry on another 429. Otherwise exponential
 * backoff with full jitter (a random wait up to the step), so clients that failed together do not return together.
 */
export function retryDelayMs(retry: number, error: FolioError, policy: RetryPolicy, random: () => number = Math.random): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * step);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; anything else (a negative or fractional number) is not one.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
