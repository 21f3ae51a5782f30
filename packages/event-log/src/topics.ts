import kafkajs, { type Admin, type Kafka } from 'kafkajs';

// kafkajs is CommonJS and Node's ESM loader does not see this one among its named exports.
const { ConfigResourceTypes } = kafkajs;
import { allTopics, topicConfig, type Topics } from '@folio/events';

/**
 * Creates the job topics with explicit partition counts and audit-log retention, if they do not exist yet, and
 * returns once every partition has a leader. Several processes start together: the one that finds the topics just
 * created by another must still wait for their leaders, or its first fetch fails. Topics that exist get the
 * settings again where they differ, so a changed FOLIO_LOG_RETENTION_DAYS takes effect at the next start.
 */
export async function ensureTopics(kafka: Kafka, topics: Topics, partitions: number, retentionMs = -1): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = allTopics(topics).filter((t) => !existing.has(t));
    const settings = topicConfig(retentionMs);
    if (missing.length > 0) await create(admin, missing, partitions, settings);
    await waitForLeaders(admin, allTopics(topics));
    await reconfigure(admin, allTopics(topics).filter((t) => existing.has(t)), settings);
  } finally {
    await admin.disconnect();
  }
}

async function create(admin: Admin, missing: string[], partitions: number, settings: Record<string, string>): Promise<void> {
  try {
    await admin.createTopics({
      // kafkajs' own wait gives up on a retriable "unknown topic" answer; waitForLeaders below retries it.
      waitForLeaders: false,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: partitions,
        replicationFactor: -1,
        configEntries: Object.entries(settings).map(([name, value]) => ({ name, value })),
      })),
    });
  } catch (error) {
    // Two processes starting together may both try to create a topic; the loser sees it exists.
    if ((error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
  }
}

/** Gives existing topics Folio's settings where theirs differ (all of them at once: alterConfigs replaces a topic's set). */
async function reconfigure(admin: Admin, names: string[], settings: Record<string, string>): Promise<void> {
  if (names.length === 0) return;
  const { resources } = await admin.describeConfigs({
    resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: Object.keys(settings) })),
    includeSynonyms: false,
  });
  const differing = resources.filter((r) => r.configEntries.some((e) => settings[e.configName] !== e.configValue)).map((r) => r.resourceName);
  if (differing.length === 0) return;
  await admin.alterConfigs({
    validateOnly: false,
    resources: differing.map((name) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configEntries: Object.entries(settings).map(([n, value]) => ({ name: n, value })),
    })),
  });
}

async function waitForLeaders(admin: Admin, names: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      if (topics.length === names.length && topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`topics ${names.join(', ')} have no leaders after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
