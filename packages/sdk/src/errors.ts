import type { ErrorCode, ErrorObject } from './types.ts';

/**
 * Failures that never reached an answer from the API, so no interface code fits them: the connection failed, the
 * attempt or a wait ran out of time, or something between client and API (a proxy) answered with a body that is not
 * the interface's error object.
 */
export type ClientErrorCode = 'connection_failed' | 'timeout' | 'unexpected_response';

/** Codes a server answer can carry (the interface's) and the client's own. */
export type FolioErrorCode = ErrorCode | ClientErrorCode;

/**
 * Every failure of the SDK, as one typed value: branch on `code` (never on `message`). `status` is the HTTP status,
 * 0 when no answer came. `retryable` is the API's own verdict for its errors; the SDK has already retried those
 * (up to maxRetries) before throwing.
 */
export class FolioError extends Error {
  override readonly name = 'FolioError';
  readonly code: FolioErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  /** X-Request-Id of the answer: quote it when asking about a request. */
  readonly requestId: string | undefined;
  /** Retry-After of the answer, in milliseconds, when it had one. */
  readonly retryAfterMs: number | undefined;
  /** invalid_parameters: each offending parameter. */
  readonly errors: ErrorObject['errors'];
  /** quota_exceeded: where to upgrade. */
  readonly upgradeUrl: string | undefined;

  constructor(init: {
    code: FolioErrorCode;
    message: string;
    status: number;
    retryable: boolean;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
    errors?: ErrorObject['errors'];
    upgradeUrl?: string | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.retryable = init.retryable;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.errors = init.errors;
    this.upgradeUrl = init.upgradeUrl;
  }
}

/** Every interface code, once: `satisfies` fails the build when the API's list and this one differ. */
const ERROR_CODES = {
  invalid_parameters: true, api_key_required: true, invalid_api_key: true, subscription_inactive: true,
  limit_exceeded: true, quota_exceeded: true, rate_limited: true, fetch_failed: true, parse_failed: true,
  render_timeout: true, render_failed: true, html_too_large: true, homepage_url: true, content_blocked: true,
  job_not_found: true,
} as const satisfies Record<ErrorCode, true>;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/**
 * The FolioError for a non-2xx answer. The API wraps its error object as `{status: "failed", error}`; a body that is
 * not that (a proxy's 502 page, an empty 429) still becomes a typed error: 429 as rate_limited, 5xx as retryable.
 */
export function errorFromResponse(response: Response, body: unknown, retryAfterMs: number | undefined): FolioError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const error = (body as { error?: Partial<ErrorObject> } | null)?.error;
  if (error && isErrorCode(error.code)) {
    return new FolioError({
      code: error.code,
      message: typeof error.message === 'string' ? error.message : error.code,
      status: response.status,
      retryable: error.retryable === true,
      requestId,
      retryAfterMs,
      errors: error.errors,
      upgradeUrl: error.upgrade_url,
    });
  }
  if (response.status === 429) {
    return new FolioError({ code: 'rate_limited', message: 'too many requests', status: 429, retryable: true, requestId, retryAfterMs });
  }
  return new FolioError({
    code: 'unexpected_response',
    message: `the API answered ${response.status} without an error object`,
    status: response.status,
    retryable: response.status >= 500,
    requestId,
    retryAfterMs,
  });
}
