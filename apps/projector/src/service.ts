import { connect, migrateDatabase } from '@folio/db';
import { EventPublisher } from '@folio/event-log';
import { consumerGroups } from '@folio/events';
import { startProjection } from '@folio/projections';
import { connectEventLog, prepareTopics, runService } from '@folio/service';
import { reportFlow } from './report-flow.ts';
import { sweepPeriodically } from '@folio/retention';
import { createBlobStore } from '@folio/storage';

await runService('projector', async ({ config, logger }) => {
  await migrateDatabase(config.databaseUrl);
  const database = connect(config.databaseUrl, { max: 8 });
  const log = connectEventLog(config, logger, 'folio-projector');
  await prepareTopics(config, log);
  // Only to fail the job of an event that had to be parked.
  const publisher = new EventPublisher(log.kafka, log.codec, log.topics);
  await publisher.connect();
  const projection = await startProjection({
    ...log,
    sql: database.sql,
    publisher,
    groupId: `${config.topicPrefix}folio-projector`,
    consumerName: 'folio-projector',
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    logger,
  });
  const report = reportFlow({ kafka: log.kafka, sql: database.sql, groups: consumerGroups(config.topicPrefix, log.topics), logger });
  // Deleting what expired is one more thing done where the read models are kept; one process sweeps at a time.
  const sweep = sweepPeriodically({ sql: database.sql, store: createBlobStore(config), fileTtlSeconds: config.fileTtlSeconds, jobTtlSeconds: config.jobTtlSeconds, logger }, config.sweepIntervalMs);
  logger.info('projector consuming');
  return {
    async stop() {
      report.stop();
      sweep.stop();
      await projection.stop();
      await publisher.disconnect();
      await database.close();
    },
  };
});
