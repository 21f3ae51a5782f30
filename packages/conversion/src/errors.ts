/** A conversion that cannot succeed, with the interface's error code. */
export type ConversionErrorCode =
  | 'parse_failed'
  | 'fetch_failed'
  | 'html_too_large'
  | 'homepage_url'
  | 'render_failed'
  | 'render_timeout'
  | 'invalid_parameters';

export class ConversionError extends Error {
  readonly code: ConversionErrorCode;
  readonly retryable: boolean;
  constructor(
    code: ConversionErrorCode,
    message: string,
    retryable = false,
  ) {
    super(message);
    this.code = code;
    this.retryable = retryable;
    this.name = 'ConversionError';
  }
}
