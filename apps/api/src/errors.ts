/**
 * Errors as values: every failure the API answers with is an ApiError carrying the interface's code, and one
 * mapping (`statusOf`, the error handler in app.ts) turns it into a response. Clients branch on `code`.
 */
export type ErrorCode =
  | 'invalid_parameters'
  | 'api_key_required'
  | 'invalid_api_key'
  | 'subscription_inactive'
  | 'limit_exceeded'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'fetch_failed'
  | 'parse_failed'
  | 'render_timeout'
  | 'render_failed'
  | 'html_too_large'
  | 'homepage_url'
  | 'content_blocked'
  | 'job_not_found';

const STATUS: Record<ErrorCode, number> = {
  invalid_parameters: 400,
  api_key_required: 401,
  invalid_api_key: 401,
  subscription_inactive: 401,
  limit_exceeded: 401,
  quota_exceeded: 402,
  rate_limited: 429,
  fetch_failed: 422,
  parse_failed: 422,
  render_timeout: 422,
  render_failed: 422,
  html_too_large: 413,
  homepage_url: 422,
  content_blocked: 422,
  job_not_found: 404,
};

const RETRYABLE = new Set<ErrorCode>(['rate_limited', 'fetch_failed', 'render_timeout', 'render_failed']);

export interface ParameterProblem {
  parameter: string;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  errors?: ParameterProblem[];
  upgrade_url?: string;
}

export class ApiError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: ParameterProblem[]; status?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.retryable = RETRYABLE.has(code);
  }

  get status(): number {
    return this.extra.status ?? STATUS[this.code];
  }

  body(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.extra.errors ? { errors: this.extra.errors } : {}),
    };
  }

  static invalid(parameter: string, message: string, status = 400): ApiError {
    return new ApiError('invalid_parameters', `${parameter}: ${message}`, { errors: [{ parameter, message }], status });
  }
}

export function statusOf(code: string): number {
  return STATUS[code as ErrorCode] ?? 422;
}
