import type { FastifyError, FastifyRequest } from 'fastify';
import { ERROR_CODES, isErrorCode, type ErrorCode } from '@folio/events';
import { HTML_LIMIT_TEXT } from './jobs/convert-request.ts';

/**
 * Errors as values: every failure the API answers with is an ApiError carrying the interface's code, and one
 * mapping (`toApiError` and `statusOf` here, used by the error handlers of app.ts and routes/legacy.ts) turns it into
 * a response. Clients branch on `code`.
 */
export type { ErrorCode };

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

  readonly code: ErrorCode;
  readonly extra: { errors?: ParameterProblem[]; status?: number; upgradeUrl?: string; retryAfterSeconds?: number };
  constructor(
    code: ErrorCode,
    message: string,
    extra: { errors?: ParameterProblem[]; status?: number; upgradeUrl?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.extra = extra;
    this.name = 'ApiError';
    this.retryable = ERROR_CODES[code].retryable;
  }

  get status(): number {
    return this.extra.status ?? ERROR_CODES[this.code].statuses[0];
  }

  body(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.extra.errors ? { errors: this.extra.errors } : {}),
      ...(this.extra.upgradeUrl ? { upgrade_url: this.extra.upgradeUrl } : {}),
    };
  }

  /** invalid_parameters naming every offending parameter. */
  static invalidAll(problems: ParameterProblem[], status = 400): ApiError {
    return new ApiError('invalid_parameters', problems.map((p) => `${p.parameter}: ${p.message}`).join('; '), { errors: problems, status });
  }

  static invalid(parameter: string, message: string, status = 400): ApiError {
    return new ApiError('invalid_parameters', `${parameter}: ${message}`, { errors: [{ parameter, message }], status });
  }
}

/** The usual status of a code (a job's error in a synchronous answer). */
export function statusOf(code: string): number {
  return isErrorCode(code) ? ERROR_CODES[code].statuses[0] : 422;
}

/** A body over its encoding's byte limit, whoever noticed it: fastify's JSON parser, the form decoder, multipart's count. */
export function bodyTooLarge(): ApiError {
  return new ApiError('html_too_large', `the request body is too large (html is limited to ${HTML_LIMIT_TEXT})`);
}

/** Every failure becomes an ApiError: validation errors name their parameters; anything unexpected is render_failed. */
export function toApiError(error: FastifyError | ApiError, request?: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if ((error as { ambiguous?: unknown }).ambiguous === true) {
    return new ApiError('render_failed', 'the job could not be confirmed written to the log; retry with the same Idempotency-Key to get this job (or its outcome) without converting it twice');
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    // The interface answers 400, not 415, and says which type it was.
    const type = JSON.stringify(request?.headers['content-type'] ?? '');
    return ApiError.invalid('content-type', `a body of type ${type} is not accepted; send application/json, application/x-www-form-urlencoded or multipart/form-data`);
  }
  if (error.validation) {
    const problems: ParameterProblem[] = error.validation.map((v) => ({
      parameter:
        (v.params as { missingProperty?: string }).missingProperty ??
        (v.instancePath.replace(/^\//, '').split('/')[0] || error.validationContext || 'body'),
      message: v.message ?? 'invalid',
    }));
    const status = error.validationContext === 'params' ? 422 : 400;
    return ApiError.invalidAll(problems, status);
  }
  if (error.code === 'FST_PARTS_LIMIT' || error.code === 'FST_FIELDS_LIMIT' || error.code === 'FST_FILES_LIMIT') {
    return ApiError.invalid('body', `too many parts: send each parameter once, as a text field (${error.message})`);
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return bodyTooLarge();
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('invalid_parameters', error.message, { status: 400 });
  }
  return new ApiError('render_failed', 'the service failed to handle this request; it is safe to retry');
}
