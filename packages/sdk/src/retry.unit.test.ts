import { describe, expect, it } from 'vitest';
import { FolioError } from './errors.ts';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs } from './retry.ts';

const error = (init: Partial<ConstructorParameters<typeof FolioError>[0]>) =>
  new FolioError({ code: 'render_failed', message: 'x', status: 422, retryable: false, ...init });

describe('retry decisions', () => {
  it('retries what the API calls retryable, 429, connection failures and timeouts; never a refusal', () => {
    expect(isRetryable(error({ code: 'render_timeout', retryable: true }))).toBe(true);
    expect(isRetryable(error({ code: 'rate_limited', status: 429, retryable: true }))).toBe(true);
    expect(isRetryable(error({ code: 'connection_failed', status: 0 }))).toBe(true);
    expect(isRetryable(error({ code: 'timeout', status: 0 }))).toBe(true);
    for (const code of ['invalid_parameters', 'invalid_api_key', 'quota_exceeded', 'parse_failed', 'job_not_found'] as const) {
      expect(isRetryable(error({ code, status: 400 })), code).toBe(false);
    }
  });

  it('waits what Retry-After says, whatever the backoff would have been', () => {
    expect(retryDelayMs(1, error({ retryAfterMs: 3000 }), DEFAULT_RETRY, () => 0.99)).toBe(3000);
    expect(retryDelayMs(5, error({ retryAfterMs: 0 }), DEFAULT_RETRY, () => 0.99)).toBe(0);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const policy = { maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, error({}), policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(retryDelayMs(3, error({}), policy, () => 0)).toBe(0);
    expect(retryDelayMs(3, error({}), policy, () => 0.5)).toBe(200);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter(new Date(1_000).toUTCString(), 4_000)).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});
