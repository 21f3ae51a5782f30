import { ERROR_CODES, isErrorCode, type ErrorCode } from '@folio/events';

/**
 * Errors as values: every failure the API answers with is an ApiError carrying the interface's code, and one
 * mapping (`statusOf`, the error handler in app.ts) turns it into a response. Clients branch on `code`.
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

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: ParameterProblem[]; status?: number; upgradeUrl?: string } = {},
  ) {
    super(message);
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
