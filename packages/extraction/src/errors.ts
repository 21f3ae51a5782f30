/** The page loaded and parsed, but holds no article (an empty page, a bare navigation shell). The caller maps it to `parse_failed`. */
export class NoArticleError extends Error {
  override readonly name = 'NoArticleError';
  readonly code = 'parse_failed' as const;

  constructor(message = 'no article found on the page') {
    super(message);
  }
}
