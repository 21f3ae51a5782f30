import type { JobError } from './types.ts';

/**
 * The interface's error codes: the HTTP statuses each may be answered with (the first is the usual one) and whether
 * trying again can help. One table, so a job's error and the API's answer can never disagree with the interface:
 * `retryable` is never chosen case by case.
 */
export const ERROR_CODES = {
  invalid_parameters: { statuses: [400, 422], retryable: false },
  api_key_required: { statuses: [401], retryable: false },
  invalid_api_key: { statuses: [401], retryable: false },
  subscription_inactive: { statuses: [401], retryable: false },
  limit_exceeded: { statuses: [401], retryable: false },
  quota_exceeded: { statuses: [402], retryable: false },
  rate_limited: { statuses: [429], retryable: true },
  fetch_failed: { statuses: [422], retryable: true },
  parse_failed: { statuses: [422], retryable: false },
  render_timeout: { statuses: [422], retryable: true },
  render_failed: { statuses: [422], retryable: true },
  html_too_large: { statuses: [413, 400, 422], retryable: false },
  homepage_url: { statuses: [422], retryable: false },
  content_blocked: { statuses: [422], retryable: false },
  job_not_found: { statuses: [404], retryable: false },
} as const satisfies Record<string, { statuses: readonly number[]; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** A job's error object; a code outside the interface (an internal failure's own name) becomes render_failed. */
export function jobError(code: string, message: string): JobError {
  const known: ErrorCode = isErrorCode(code) ? code : 'render_failed';
  return { code: known, message, retryable: ERROR_CODES[known].retryable };
}
