import { connect, migrateDatabase } from '@folio/db';
import { EventPublisher, groupStatus } from '@folio/event-log';
import { consumerGroups } from '@folio/events';
import { NetworkPolicy } from '@folio/network-policy';
import { connectEventLog, prepareTopics, runService } from '@folio/service';
import { createBlobStore, LocalDiskStore } from '@folio/storage';
import { buildApp } from './app.ts';
import { JobWatch } from './jobs/watch.ts';
import { SyncLane } from './jobs/sync-lane.ts';
import { RateLimiter } from './rate-limits/limiter.ts';
import { flowCheck, syncLaneCheck } from './flow-check.ts';
import { injectFaults } from './faults.ts';

await runService('api', async ({ config, logger }) => {
  await migrateDatabase(config.databaseUrl);
  const database = connect(config.databaseUrl, { max: 20 });
  const log = connectEventLog(config, logger, 'folio-api');
  await prepareTopics(config, log);
  const publisher = injectFaults(new EventPublisher(log.kafka, log.codec, log.topics), config.faults);
  await publisher.connect();
  const store = createBlobStore(config);
  const watch = new JobWatch(database.sql, logger);
  await watch.start();

  const limiter = new RateLimiter(database.sql, logger);
  limiter.start();

  const admin = log.kafka.admin();
  const groups = consumerGroups(config.topicPrefix, log.topics);
  const syncGroup = groups.find((g) => g.name === 'folio-renderer-sync')!;
  const syncLane = new SyncLane({
    read: async () => {
      const [lane] = await groupStatus(admin, [syncGroup]);
      return { lag: lane!.lag, position: lane!.position, members: lane!.members };
    },
    // What a renderer may convert of the sync lane at once: its slots, and the one more it keeps for sync jobs alone.
    slotsEach: config.renderConcurrency + 1,
    ceilingMs: config.syncTimeoutMs,
    logger,
  });
  const app = await buildApp({
    logger,
    db: database.db,
    submit: { sql: database.sql, upgradeUrl: config.upgradeUrl, publisher, store, claimCheckBytes: config.claimCheckBytes, jobTtlSeconds: config.jobTtlSeconds },
    view: { sql: database.sql, store },
    watch,
    network: new NetworkPolicy(config.allowPrivateHosts),
    publicUrl: config.publicUrl,
    syncTimeoutMs: config.syncTimeoutMs,
    syncLane,
    limiter,
    rateLimitScale: config.rateLimitScale,
    corsOrigins: config.corsOrigins,
    metricsOnPublicPort: config.metricsPort === null,
    localFiles: store instanceof LocalDiskStore ? store : null,
    checks: {
      postgres: async () => void (await database.sql`select 1`),
      kafka: async () => void (await admin.metadata({ topics: [], forceUpdate: true })),
      schema_registry: async () => {
        const response = await fetch(`${config.schemaRegistryUrl}/subjects`);
        if (!response.ok) throw new Error(`registry answered ${response.status}`);
      },
      storage: () => store.check(),
      consumers: flowCheck(admin, database.sql, groups),
      sync_lane: syncLaneCheck(syncLane),
    },
  });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ url: config.publicUrl }, 'api listening');

  return {
    async stop() {
      await app.close();
      await syncLane.stop();
      await limiter.stop();
      await watch.stop();
      await Promise.allSettled([publisher.disconnect(), admin.close()]);
      await database.close();
    },
  };
});
