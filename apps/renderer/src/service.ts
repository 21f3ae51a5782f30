import { availableParallelism, hostname } from 'node:os';
import { connect, migrateDatabase } from '@folio/db';
import { EventPublisher } from '@folio/event-log';
import { connectEventLog, prepareTopics, runService } from '@folio/service';
import { createBlobStore } from '@folio/storage';
import { ConversionPool } from '@folio/conversion';
import { PdfRenderer } from '@folio/pdf';
import { startLane } from './lane.ts';
import { RenderSlots } from './slots.ts';
import { FinishedJobs } from './finished-jobs.ts';

await runService('renderer', async ({ config, logger }) => {
  const slots = new RenderSlots(config.renderConcurrency);
  const pdf = new PdfRenderer({
    executablePath: config.chromiumPath,
    allowPrivateHosts: config.allowPrivateHosts,
    memoryBudgetMb: config.chromiumMemoryMb,
    // A warm tab for every slot, the one kept for sync jobs included, so that no job waits for a tab.
    pages: slots.total,
  });
  // One more thread for sync jobs alone (as the slots keep one for them), started the first time a sync job finds the
  // others busy: async jobs slow to fetch or to convert may hold every other thread for their whole budget, and a
  // caller waiting on a sync job has seconds.
  const pool = new ConversionPool({
    size: Math.min(config.renderConcurrency, availableParallelism()),
    urgentWorkers: 1,
    allowPrivateHosts: config.allowPrivateHosts,
    budgetMs: config.conversionBudgetMs,
  });
  // The browser and the conversion threads are most of a start (a restart after a crash included): they get going
  // while Kafka and Postgres are set up, which wait on the network meanwhile.
  const engines = Promise.all([pdf.start(), pool.ready()]);
  engines.catch(() => {}); // awaited below; a failure before then must not be an unhandled rejection
  const log = connectEventLog(config, logger, 'folio-renderer');
  await prepareTopics(config, log);
  // Starts of jobs are counted in Postgres, and parked requests recorded there (the projector migrates it).
  await migrateDatabase(config.databaseUrl);
  const database = connect(config.databaseUrl, { max: Math.max(2, config.renderConcurrency) });
  const publisher = new EventPublisher(log.kafka, log.codec, log.topics);
  await publisher.connect();
  await engines;
  const render = {
    engine: { pool, pdf },
    publisher,
    store: createBlobStore(config),
    sql: database.sql,
    worker: `${hostname()}/${process.pid}`,
    attempts: config.renderAttempts,
    claimCheckBytes: config.claimCheckBytes,
    syncTimeoutMs: config.syncTimeoutMs,
    faults: config.faults,
    finished: new FinishedJobs(),
    logger,
  };
  const lanes = await Promise.all(
    (['sync', 'async'] as const).map((lane) =>
      startLane({
        lane,
        topic: lane === 'sync' ? log.topics.queuedSync : log.topics.queuedAsync,
        groupId: `${config.topicPrefix}folio-renderer-${lane}`,
        consumerName: `folio-renderer-${lane}`,
        sql: database.sql,
        publisher,
        kafka: log.kafka,
        codec: log.codec,
        slots,
        sessionTimeoutMs: config.kafkaSessionTimeoutMs,
        render,
        logger,
      }),
    ),
  );
  logger.info({ worker: render.worker, concurrency: config.renderConcurrency }, 'renderer consuming');
  return {
    async stop() {
      // Disconnecting waits for the jobs in hand to finish and commits their offsets.
      await Promise.all(lanes.map((l) => l.stop()));
      await Promise.allSettled([publisher.disconnect(), pdf.close(), pool.close(), database.close()]);
    },
  };
});
