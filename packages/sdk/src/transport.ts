import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/schema.ts';
import { errorFromResponse, FolioError } from './errors.ts';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, sleep, type RetryPolicy } from './retry.ts';

export interface FolioOptions {
  apiKey: string;
  /** Where the API is, e.g. `https://folio.example.com` (no trailing /v2). */
  baseUrl: string;
  /** Limit on each attempt, in milliseconds (the API's synchronous ceiling is 27 s). Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures. Default 2; 0 turns retries off. */
  maxRetries?: number;
  /** Backoff between retries when the API gave no Retry-After. Defaults: 500 ms doubling up to 8 s. */
  backoff?: { baseDelayMs?: number; maxDelayMs?: number };
  /** A fetch of your own (a proxy agent, a test double). Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The result of one openapi-fetch call, whatever its operation. */
interface Attempt<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Sends one attempt; a retry is told what the attempt before it failed with. */
export type Send<T> = (signal: AbortSignal, previous: FolioError | undefined) => Promise<Attempt<T>>;

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The generated client plus what every call needs: the key, a time limit per attempt, and retries. Errors leave
 * here only as FolioError, or as the caller's own abort reason when the caller aborted.
 */
export class Transport {
  readonly client: Client<paths>;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;

  private readonly random: () => number;
  constructor(options: FolioOptions, random: () => number = Math.random) {
    this.random = random;
    if (!options.apiKey) throw new TypeError('Folio: apiKey is required');
    if (!options.baseUrl) throw new TypeError('Folio: baseUrl is required');
    // Read at call time, so a fetch patched after construction (or a test's) is the one used.
    const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.client = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: fetchImpl,
      headers: { authorization: `Bearer ${options.apiKey}` },
    });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
      baseDelayMs: options.backoff?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.backoff?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    };
  }

  /**
   * Runs `send` until it succeeds, fails for good, or runs out of retries. `send` must build a fresh request each
   * time (a request body can be read only once) and must send the same thing every time: callers make that safe
   * for conversions with an Idempotency-Key (see Folio.post).
   */
  async call<T>(
    send: Send<T>,
    signal?: AbortSignal,
    /** Narrows which retryable failures are retried, for a call that is not safe to send twice. */
    safeToRetry: (failure: FolioError) => boolean = () => true,
  ): Promise<{ data: T; response: Response }> {
    let previous: FolioError | undefined;
    for (let retry = 1; ; retry++) {
      const failure = await this.attempt((attemptSignal) => send(attemptSignal, previous), signal);
      if (!(failure instanceof FolioError)) return failure;
      if (retry > this.policy.maxRetries || !isRetryable(failure) || !safeToRetry(failure)) throw failure;
      await sleep(retryDelayMs(retry, failure, this.policy, this.random), signal);
      previous = failure;
    }
  }

  private async attempt<T>(send: (signal: AbortSignal) => Promise<Attempt<T>>, signal?: AbortSignal): Promise<{ data: T; response: Response } | FolioError> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let result: Attempt<T>;
    try {
      result = await send(signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (cause) {
      // The caller's abort is not a failure of the API: it ends everything, with the caller's own reason.
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        return new FolioError({ code: 'timeout', message: `no answer within ${this.timeoutMs} ms`, status: 0, retryable: true, cause });
      }
      // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a certificate) is on its cause.
      const reason = (cause as { cause?: { code?: string; message?: string } })?.cause;
      const detail = reason?.code ?? reason?.message;
      return new FolioError({
        code: 'connection_failed',
        message: `could not reach the API: ${(cause as Error)?.message ?? cause}${detail ? ` (${detail})` : ''}`,
        status: 0,
        retryable: true,
        cause,
      });
    }
    const { response } = result;
    if (response.ok) return { data: result.data as T, response };
    return errorFromResponse(response, result.error, parseRetryAfter(response.headers.get('retry-after')));
  }
}
