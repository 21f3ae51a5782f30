import { parseArgs } from 'node:util';
import { loadConfig } from '@folio/config';
import { connect, migrateDatabase } from '@folio/db';
import { createKey, deactivateKey, keySeal, PLANS, type Plan } from '@folio/keys';
import { createLogger } from '@folio/logging';
import { EventPublisher } from '@folio/event-log';
import { listParked } from '@folio/parked-events';
import { rebuildReadModels } from '@folio/projections';
import { connectEventLog } from '@folio/service';
import { FolioError } from '@folio/sdk';
import { folioFromEnv, MissingKeyError } from './api-client.ts';
import { convertDocument, type ConvertCommand } from './convert.ts';
import { formatParked, retryParked } from './parked.ts';
import { USAGE, UsageError } from './usage.ts';
import { waitShowingProgress } from './waiting.ts';

/** Ctrl-C stops a wait cleanly (the job goes on) instead of killing the process mid-write. */
const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort(new Error('interrupted')));

async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group === 'convert') return convert(argv.slice(1));
  if (group === 'jobs') return jobs(command, rest);
  const config = loadConfig();
  if (group === 'keys' && command === 'create') {
    const { values } = parseArgs({ args: rest, options: { plan: { type: 'string' }, limit: { type: 'string' } } });
    if (!values.plan || !PLANS.includes(values.plan as Plan)) throw new UsageError('--plan must be free or paid');
    const limit = values.limit === undefined ? null : Number(values.limit);
    if (limit !== null && (!Number.isInteger(limit) || limit < 1)) throw new UsageError('--limit must be a whole number above 0');
    await migrateDatabase(config.databaseUrl);
    const database = connect(config.databaseUrl, { max: 1 });
    try {
      const key = await createKey(database.db, keySeal(config), values.plan as Plan, limit);
      process.stderr.write(`created a ${key.plan} key${limit ? ` limited to ${limit} documents` : ''} (id ${key.id})\n`);
      process.stdout.write(`${key.key}\n`);
    } finally {
      await database.close();
    }
    return;
  }
  if (group === 'keys' && command === 'deactivate') {
    const key = rest[0];
    if (!key) throw new UsageError('name the key to deactivate');
    const database = connect(config.databaseUrl, { max: 1 });
    try {
      if (!(await deactivateKey(database.db, key))) throw new UsageError('no such key');
      process.stdout.write('deactivated\n');
    } finally {
      await database.close();
    }
    return;
  }
  if (group === 'parked' && command === 'list') {
    const { values } = parseArgs({ args: rest, options: { all: { type: 'boolean' } } });
    const database = connect(config.databaseUrl, { max: 1 });
    try {
      process.stdout.write(formatParked(await listParked(database.sql, { all: values.all ?? false })));
    } finally {
      await database.close();
    }
    return;
  }
  if (group === 'parked' && command === 'retry') {
    const { values, positionals } = parseArgs({ args: rest, options: { all: { type: 'boolean' } }, allowPositionals: true });
    const id = positionals[0] === undefined ? undefined : Number(positionals[0]);
    if (values.all === (id !== undefined) || (id !== undefined && !Number.isInteger(id))) {
      throw new UsageError('name one parked event by its number, or --all');
    }
    const database = connect(config.databaseUrl, { max: 2 });
    const log = connectEventLog(config, createLogger('parked', 'warn'), 'folio-parked-retry');
    try {
      const outcomes = await retryParked({ sql: database.sql, kafka: log.kafka, codec: log.codec }, values.all ? 'all' : id!);
      for (const o of outcomes) process.stdout.write(`#${o.id} ${o.applied ? 'applied' : 'still parked'}: ${o.detail}\n`);
      if (outcomes.length === 0) process.stdout.write('no parked events\n');
      if (outcomes.some((o) => !o.applied)) process.exitCode = 1;
    } finally {
      await database.close();
    }
    return;
  }
  if (group === 'replay' && command === undefined) {
    const logger = createLogger('replay', 'warn');
    await migrateDatabase(config.databaseUrl);
    const database = connect(config.databaseUrl, { max: 8 });
    const log = connectEventLog(config, logger, 'folio-replay');
    const publisher = new EventPublisher(log.kafka, log.codec, log.topics);
    await publisher.connect();
    try {
      const started = Date.now();
      const { events } = await rebuildReadModels({
        ...log,
        sql: database.sql,
        publisher,
        groupId: `${config.topicPrefix}folio-projector`,
        consumerName: 'folio-projector',
        logger,
        onProgress: (done, total) => process.stderr.write(`\r${progressBar(done, total)}`),
      });
      process.stderr.write('\n');
      process.stdout.write(`replayed ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    } finally {
      await publisher.disconnect();
      await database.close();
    }
    return;
  }
  throw new UsageError(group ? `unknown command: ${argv.join(' ')}` : 'no command given');
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

function progressBar(done: number, total: number, width = 30): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} events`;
}

try {
  await main(process.argv.slice(2));
  process.exit(process.exitCode ?? 0);
} catch (error) {
  if (error instanceof UsageError) process.stderr.write(`folio: ${error.message}\n\n${USAGE}`);
  else if (error instanceof FolioError) process.stderr.write(`folio: ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}\n`);
  else process.stderr.write(`folio: ${(error as Error).message}\n`);
  if (interrupted.signal.aborted) process.exit(130);
  process.exit(error instanceof UsageError || error instanceof MissingKeyError ? 2 : 1);
}
