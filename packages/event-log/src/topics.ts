import type { Kafka } from 'kafkajs';
import { allTopics, TOPIC_CONFIG, type Topics } from '@folio/events';

/** Creates the job topics with explicit partition counts and audit-log retention, if they do not exist yet. */
export async function ensureTopics(kafka: Kafka, topics: Topics, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = allTopics(topics).filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: partitions,
        replicationFactor: -1,
        configEntries: Object.entries(TOPIC_CONFIG).map(([name, value]) => ({ name, value })),
      })),
    });
  } catch (error) {
    // Two processes starting together may both try to create a topic; the loser sees it exists.
    if ((error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
  } finally {
    await admin.disconnect();
  }
}
