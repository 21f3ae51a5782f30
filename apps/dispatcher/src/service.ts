import { hostname } from 'node:os';
import { connect, migrateDatabase } from '@folio/db';
import { EventPublisher } from '@folio/event-log';
import { keySeal } from '@folio/keys';
import { guardedAgent, NetworkPolicy } from '@folio/network-policy';
import { CALLBACK_CHANNEL } from '@folio/webhooks';
import { connectEventLog, prepareTopics, runService } from '@folio/service';
import { createBlobStore } from '@folio/storage';
import { deliverCallback } from './deliver-callback.ts';
import { DeliveryLoop } from './delivery-loop.ts';
import { SigningKeys } from './signing-keys.ts';

/**
 * The callback dispatcher: sends the callbacks owed in the durable schedule (the projector owes them in the
 * transaction that makes a job final) as signed POSTs with their retries, recording every attempt as an event.
 */
await runService('dispatcher', async ({ config, logger }) => {
  const log = connectEventLog(config, logger, 'folio-dispatcher');
  await prepareTopics(config, log);
  await migrateDatabase(config.databaseUrl);
  const database = connect(config.databaseUrl, { max: 10 });
  const publisher = new EventPublisher(log.kafka, log.codec, log.topics);
  await publisher.connect();
  const policy = new NetworkPolicy(config.allowPrivateHosts);
  // Connections per receiver: as many as the loop may send to one host (it bounds them, not the agent).
  const agent = guardedAgent(policy, { connectTimeoutMs: config.webhookTimeoutMs, connections: config.webhookConcurrency });
  const context = {
    database,
    view: { sql: database.sql, store: createBlobStore(config) },
    keys: new SigningKeys(database.db, keySeal(config)),
    publisher,
    agent,
    policy,
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetryDelaysMs,
    worker: `${hostname()}/${process.pid}`,
    logger,
  };
  const loop = new DeliveryLoop({
    sql: database.sql,
    concurrency: config.webhookConcurrency,
    hostConcurrency: config.webhookHostConcurrency,
    // An attempt takes at most the answer time; recording it waits out a store that is away for a while more.
    leaseMs: config.webhookTimeoutMs + 60_000,
    deliver: (callback, waiting) => deliverCallback(context, callback, waiting),
    logger,
  });
  // Told by the projector the moment callbacks become owed; the loop also looks on its own (retries come due, and
  // claims of a dispatcher that died run out).
  const { unlisten } = await database.sql.listen(CALLBACK_CHANNEL, () => loop.wake(), () => loop.wake());
  loop.start();
  logger.info({ worker: context.worker, concurrency: config.webhookConcurrency, per_host: config.webhookHostConcurrency }, 'dispatcher delivering callbacks');
  return {
    async stop() {
      await unlisten();
      await loop.stop();
      await Promise.allSettled([agent.close(), publisher.disconnect(), database.close()]);
    },
  };
});
