import { afterAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ConfigResourceTypes } from '@platformatic/kafka';
import { loadConfig } from '@folio/config';
import { allTopics } from '@folio/events';
import { createLogger } from '@folio/logging';
import { connectEventLog, prepareTopics } from '@folio/service';

describe('the topics the apps make keep the log for audit, with the replication the cluster allows', () => {
  const infra = inject('infra');
  const prefix = `retention${randomBytes(3).toString('hex')}.`;
  const configFor = (env: Record<string, string>) =>
    loadConfig({ KAFKA_BROKERS: infra.KAFKA_BROKERS!, SCHEMA_REGISTRY_URL: infra.SCHEMA_REGISTRY_URL!, FOLIO_TOPIC_PREFIX: prefix, FOLIO_TOPIC_PARTITIONS: '2', ...env });
  const log = connectEventLog(configFor({}), createLogger('retention-test', 'warn'), 'folio-retention-test');
  const admin = log.kafka.admin();
  afterAll(async () => {
    await admin.deleteTopics({ topics: allTopics(log.topics) }).catch(() => {});
    await admin.close();
  });

  async function settings(): Promise<Record<string, Record<string, string>>> {
    const resources = await admin.describeConfigs({
      resources: allTopics(log.topics).map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: ['retention.ms', 'retention.bytes', 'cleanup.policy', 'min.insync.replicas'] })),
      includeSynonyms: false,
    });
    return Object.fromEntries(resources.map((r) => [r.resourceName, Object.fromEntries(r.configs.map((e) => [e.name, e.value ?? '']))]));
  }

  /** The settings once the broker shows these (a change goes through the controller: a broker answers it a moment later). */
  async function settled(expected: (topic: Record<string, string>) => boolean): Promise<Record<string, Record<string, string>>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await settings();
      if (Object.values(now).every(expected) || Date.now() > deadline) return now;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('forever by default, deleted by time only and never compacted; FOLIO_LOG_RETENTION_DAYS changes topics that exist', async () => {
    await prepareTopics(configFor({}), log);
    for (const topic of Object.values(await settings())) expect(topic).toEqual({ 'retention.ms': '-1', 'retention.bytes': '-1', 'cleanup.policy': 'delete', 'min.insync.replicas': '1' });

    // An operator chooses a finite retention: the next start applies it to the topics already there.
    await prepareTopics(configFor({ FOLIO_LOG_RETENTION_DAYS: '400' }), log);
    for (const topic of Object.values(await settled((t) => t['retention.ms'] !== '-1'))) {
      expect(topic).toEqual({ 'retention.ms': String(400 * 86_400_000), 'retention.bytes': '-1', 'cleanup.policy': 'delete', 'min.insync.replicas': '1' });
    }
    await prepareTopics(configFor({ FOLIO_LOG_RETENTION_DAYS: 'forever' }), log);
    for (const topic of Object.values(await settled((t) => t['retention.ms'] === '-1'))) expect(topic['retention.ms']).toBe('-1');
  });

  it('never takes the broker\'s default replication, and will not start with settings the cluster cannot keep', async () => {
    await prepareTopics(configFor({}), log);
    const { topics } = await admin.metadata({ topics: allTopics(log.topics) });
    // A single broker: one replica a partition, written explicitly (replicas: -1 would take the broker's default).
    for (const name of allTopics(log.topics)) expect(topics.get(name)!.partitions.map((p) => p.replicas.length)).toEqual([1, 1]);
    await expect(prepareTopics(configFor({ FOLIO_TOPIC_REPLICATION: '3' }), log)).rejects.toThrow(/cluster has 1 broker/);
    // Topics that exist with one replica cannot be asked for two in sync: every write would be refused.
    await expect(prepareTopics(configFor({ FOLIO_TOPIC_MIN_INSYNC: '2' }), log)).rejects.toThrow(/above the 1 replica/);
    for (const topic of Object.values(await settings())) expect(topic['min.insync.replicas']).toBe('1');
  });
});
