import type { ApiError, ErrorCode } from '../errors.ts';

/** The error types of the legacy endpoints (interface: "Legacy error responses"). */
export const LEGACY_TYPES = [
  'parameters-validation',
  'banned-domain',
  'failed-parsed',
  'fetch-error',
  'high-load',
  'invalid-file-ext',
  'large-page',
  'security-platform',
  'timeout',
  'catch-all',
] as const;
export type LegacyType = (typeof LEGACY_TYPES)[number];

/** The statuses a legacy endpoint answers with besides 200. */
export type LegacyStatus = 400 | 401 | 404 | 429;

export interface LegacyFailure {
  status: 'failed';
  message: string;
  type: LegacyType;
}

/**
 * Every interface error as a legacy endpoint answers it: one table. The legacy endpoints use only 400, 401, 404 and
 * 429, so what /v2/convert answers with 402, 413 or 422 is 400 here, with the type that says why. The monthly quota
 * is the exception the interface names: 401 with an API-limit-exceeded message (not 402, though the endpoint's rule 3
 * lists it), and a key's own limit is told the same way. A key that is missing, unknown or inactive is a failed
 * api_key (the legacy API takes the key as a parameter). Rate limiting answers 429 with an empty body from its own
 * plugin, and a sync backlog too long for the ceiling the same way (routes/legacy.ts); should another rate_limited
 * error reach this table, high-load is the type nearest to it.
 * invalid-file-ext, security-platform and banned-domain have no code of their own in Folio: a document that is not a
 * web page is parse_failed, a site blocking the fetch is fetch_failed; content_blocked (the acceptable-use checks)
 * is the one refusal of a site for what it is, so it is banned-domain.
 */
export const LEGACY_ERRORS: Record<ErrorCode, { status: LegacyStatus; type: LegacyType; lead?: string }> = {
  invalid_parameters: { status: 400, type: 'parameters-validation' },
  api_key_required: { status: 401, type: 'parameters-validation' },
  invalid_api_key: { status: 401, type: 'parameters-validation' },
  subscription_inactive: { status: 401, type: 'parameters-validation' },
  limit_exceeded: { status: 401, type: 'parameters-validation', lead: 'API limit exceeded' },
  quota_exceeded: { status: 401, type: 'parameters-validation', lead: 'API limit exceeded' },
  rate_limited: { status: 429, type: 'high-load' },
  fetch_failed: { status: 400, type: 'fetch-error' },
  parse_failed: { status: 400, type: 'failed-parsed' },
  render_timeout: { status: 400, type: 'timeout' },
  render_failed: { status: 400, type: 'catch-all' },
  html_too_large: { status: 400, type: 'large-page' },
  homepage_url: { status: 400, type: 'failed-parsed' },
  content_blocked: { status: 400, type: 'banned-domain' },
  job_not_found: { status: 404, type: 'catch-all' },
};

/** The legacy answer to an error: its status and the `{status: "failed", message, type}` body. */
export function legacyFailure(error: Pick<ApiError, 'code' | 'message'>): { status: LegacyStatus; body: LegacyFailure } {
  const { status, type, lead } = LEGACY_ERRORS[error.code];
  return { status, body: { status: 'failed', message: lead ? `${lead}: ${error.message}` : error.message, type } };
}

/** A path or method under a legacy endpoint's prefix that is not one of its routes: the legacy 404. */
export function legacyNoRoute(method: string, path: string): LegacyFailure {
  return { status: 'failed', message: `no route ${method} ${path}`, type: 'catch-all' };
}

/** A method a legacy path does not have (answered 405 with Allow). */
export function legacyMethodRefused(message: string): LegacyFailure {
  return { status: 'failed', message, type: 'catch-all' };
}
