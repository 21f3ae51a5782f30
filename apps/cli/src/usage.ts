/** What `folio` can do: printed with every mistake in a command line. */
export const USAGE = `usage:
  folio convert <file|url> [--output pdf|docx|markdown|html|text|json] [--out file]
        [--as html|markdown] [--title T] [--page-size A4|Letter|...] [--lang L] [--css-url U]
                                                   convert through the API (FOLIO_URL, FOLIO_API_KEY), showing progress
  folio jobs get <id>                              print a job as the API answers it
  folio jobs wait <id>                             wait for a job to finish, showing progress, then print it
  folio keys create --plan free|paid [--limit N]   make an API key (printed alone on the last line)
  folio keys deactivate <key>                      make the subscription behind a key inactive
  folio replay                                     rebuild the read models from offset 0 (stop the projector first)
  folio parked list [--all]                        events a consumer could never apply (--all: resolved ones too)
  folio parked retry <id>|--all                    re-apply parked events after their fault was mended
`;

/** A mistake in the command line itself: the CLI answers with the usage text and exit code 2. */
export class UsageError extends Error {}
