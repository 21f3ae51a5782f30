import { parseArgs } from 'node:util';
import { loadConfig } from '@folio/config';
import { connect, migrateDatabase } from '@folio/db';
import { createKey, deactivateKey, keySeal, PLANS, type Plan } from '@folio/keys';
import { createLogger } from '@folio/logging';
import { listParked } from '@folio/parked-events';
import { replayReadModels } from '@folio/projections';
import { connectEventLog } from '@folio/service';
import { formatParked, retryParked } from './parked.ts';
import { formatReport, progressLine } from './replay.ts';
import { runCommand, UsageError } from './usage.ts';

/** The operators' commands: they work on Postgres and Kafka directly (`folio convert|jobs` are in user-commands.ts). */
async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
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
  if (group === 'replay' && (command === undefined || command.startsWith('--'))) {
    const { values } = parseArgs({ args: argv.slice(1), options: { swap: { type: 'boolean' } } });
    const logger = createLogger('replay', 'warn');
    await migrateDatabase(config.databaseUrl);
    const database = connect(config.databaseUrl, { max: 4 });
    const log = connectEventLog(config, logger, 'folio-replay');
    try {
      const report = await replayReadModels({
        ...log,
        sql: database.sql,
        databaseUrl: config.databaseUrl,
        groupPrefix: config.topicPrefix,
        swap: values.swap ?? false,
        logger,
        onProgress: (progress) => process.stderr.write(`\r\x1b[K${progressLine(progress)}`),
      });
      process.stderr.write('\n');
      process.stdout.write(formatReport(report));
      // A difference is the answer to "is the live projection right?"; after a swap it was the point.
      if (!report.verification.equal && !report.swapped) process.exitCode = 1;
    } finally {
      await database.close();
    }
    return;
  }
  throw new UsageError(group ? `unknown command: ${argv.join(' ')}` : 'no command given');
}

await runCommand(main);
