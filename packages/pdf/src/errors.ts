/** The render did not finish within its time budget (queueing for a page included). Not the document's fault alone: retryable. */
export class RenderTimeoutError extends Error {
  readonly code = 'render_timeout' as const;
  readonly retryable = true;
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`rendering the PDF took longer than ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
    this.name = 'RenderTimeoutError';
  }
}

/**
 * Chromium died twice under this render (its tab crashed or the browser went away, was restarted, and it happened
 * again): the document itself is the likely cause.
 */
export class RenderCrashedError extends Error {
  readonly code = 'render_crashed' as const;
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RenderCrashedError';
  }
}

/** Chromium refused or failed to print this document for another reason (the cause says which). */
export class RenderFailedError extends Error {
  readonly code = 'render_failed' as const;
  readonly retryable = false;
  constructor(options: { cause: unknown }) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`rendering the PDF failed: ${why}`, options);
    this.name = 'RenderFailedError';
  }
}

/** Chromium could not be started (missing binary, missing libraries): an installation problem, not a document one. */
export class BrowserLaunchError extends Error {
  readonly code = 'browser_unavailable' as const;
  readonly retryable = false;
  constructor(executablePath: string, options?: { cause?: unknown }) {
    const why = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`cannot start Chromium at ${executablePath}${why}`, options);
    this.name = 'BrowserLaunchError';
  }
}

/** render() after close(), or before start() finished failing. */
export class RendererClosedError extends Error {
  readonly code = 'renderer_closed' as const;
  readonly retryable = true;
  constructor() {
    super('the PDF renderer is closed');
    this.name = 'RendererClosedError';
  }
}
