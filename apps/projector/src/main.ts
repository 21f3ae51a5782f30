import { connect, migrateDatabase } from '@folio/db';
import { startProjection } from '@folio/projections';
import { connectEventLog, prepareTopics, runService } from '@folio/service';

await runService('projector', async ({ config, logger }) => {
  await migrateDatabase(config.databaseUrl);
  const database = connect(config.databaseUrl, { max: 8 });
  const log = connectEventLog(config, logger, 'folio-projector');
  await prepareTopics(config, log);
  const projection = await startProjection({
    ...log,
    sql: database.sql,
    groupId: `${config.topicPrefix}folio-projector`,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    logger,
  });
  logger.info('projector consuming');
  return {
    async stop() {
      await projection.stop();
      await database.close();
    },
  };
});
