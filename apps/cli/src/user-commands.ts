import { parseArgs } from 'node:util';
import { folioFromEnv } from './api-client.ts';
import { convertDocument, type ConvertCommand } from './convert.ts';
import { interrupted, runCommand, UsageError } from './usage.ts';
import { waitShowingProgress } from './waiting.ts';

/**
 * The users' commands: `folio convert` and `folio jobs`, through the API with the SDK, as any client would. Their
 * own entry (bin/folio.mjs picks it), so they start without loading the operators' Postgres and Kafka clients.
 */
async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group === 'convert') return convert(argv.slice(1));
  if (group === 'jobs') return jobs(command, rest);
  throw new UsageError(`unknown command: ${argv.join(' ')}`);
}

/** `folio convert <file|url> [--output pdf] [--out file] ...`: through the API, as any client would. */
async function convert(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o', default: 'pdf' },
      out: { type: 'string' },
      as: { type: 'string' },
      title: { type: 'string' },
      'page-size': { type: 'string' },
      lang: { type: 'string' },
      'css-url': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('name one file or web address to convert');
  const params = Object.fromEntries(
    Object.entries({ title: values.title, page_size: values['page-size'], lang: values.lang, css_url: values['css-url'] }).filter(([, v]) => v !== undefined),
  );
  const command: ConvertCommand = { source: positionals[0]!, output: values.output as ConvertCommand['output'], out: values.out, as: values.as, params };
  await convertDocument(folioFromEnv(), command, interrupted.signal);
}

/** `folio jobs get <id>` prints the job as the API answers it; `folio jobs wait <id>` first waits for it to finish. */
async function jobs(command: string | undefined, rest: string[]): Promise<void> {
  const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
  const id = positionals[0];
  if ((command !== 'get' && command !== 'wait') || positionals.length !== 1 || !id) throw new UsageError('folio jobs get|wait <job id>');
  const folio = folioFromEnv();
  const job = command === 'get' ? await folio.jobs.get(id, { signal: interrupted.signal }) : await waitShowingProgress(folio, id, interrupted.signal);
  process.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
}

await runCommand(main);
