/** What `folio` can do: printed with every mistake in a command line. */
export const USAGE = `usage:
  folio convert <file|url> [--output pdf|docx|markdown|html|text|json] [--out file]
        [--as html|markdown] [--title T] [--page-size A4|Letter|...] [--lang L] [--css-url U]
                                                   convert through the API (FOLIO_URL, FOLIO_API_KEY), showing progress
  folio jobs get <id>                              print a job as the API answers it
  folio jobs wait <id>                             wait for a job to finish, showing progress, then print it
  folio keys create --plan free|paid [--limit N]   make an API key (printed alone on the last line)
  folio keys deactivate <key>                      make the subscription behind a key inactive
  folio replay [--swap]                            rebuild the read models from offset 0 into fresh tables and compare
                                                   them with the live ones; --swap puts them in place (safe while serving)
  folio parked list [--all]                        events a consumer could never apply (--all: resolved ones too)
  folio parked retry <id>|--all                    re-apply parked events after their fault was mended
`;

/** A mistake in the command line itself: the CLI answers with the usage text and exit code 2. */
export class UsageError extends Error {}

/** A setting the command needs is missing (FOLIO_API_KEY): exit 2, with the message alone. */
export class MissingSettingError extends Error {}

/** Ctrl-C stops a wait cleanly (the job goes on) instead of killing the process mid-write. */
export const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort(new Error('interrupted')));

/**
 * Runs a command with the process's arguments and ends the process: exit 0, or the failure on stderr with exit 2
 * for a mistake in the command (usage text included), 130 after Ctrl-C, 1 otherwise. An API error is said by its
 * code and request id, the two things worth quoting when asking about it.
 */
export async function runCommand(main: (argv: string[]) => Promise<void>): Promise<never> {
  try {
    await main(process.argv.slice(2));
    process.exit(process.exitCode ?? 0);
  } catch (error) {
    const { code, requestId } = error as { code?: unknown; requestId?: unknown };
    if (error instanceof UsageError) process.stderr.write(`folio: ${error.message}\n\n${USAGE}`);
    else if ((error as Error)?.name === 'FolioError') process.stderr.write(`folio: ${code}: ${(error as Error).message}${requestId ? ` (request ${requestId})` : ''}\n`);
    else process.stderr.write(`folio: ${(error as Error).message}\n`);
    if (interrupted.signal.aborted) process.exit(130);
    process.exit(error instanceof UsageError || error instanceof MissingSettingError ? 2 : 1);
  }
}
