/** A conversion that cannot succeed, with the interface's error code. */
export class ConversionError extends Error {
  constructor(
    readonly code: 'parse_failed' | 'fetch_failed' | 'html_too_large' | 'homepage_url' | 'render_failed' | 'invalid_parameters',
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ConversionError';
  }
}
