import { ConfigResourceTypes, type Admin } from '@platformatic/kafka';
import { allTopics, topicConfig, type Topics } from '@folio/events';
import type { KafkaClients } from './kafka.ts';
import { existingTopicProblem, topicDurability, TopicSettingsError, type DurabilityWanted } from './durability.ts';

export interface TopicPlan extends Partial<DurabilityWanted> {
  partitions: number;
  /** Audit-log retention (FOLIO_LOG_RETENTION_DAYS); -1, the default, keeps events for ever. */
  retentionMs?: number;
}

/**
 * Creates the job topics with explicit partition counts, replication, min.insync.replicas and audit-log retention,
 * if they do not exist yet, and returns once every partition has a leader. The replication is never the broker's
 * default (`topicDurability`: 3 copies, 2 needed, on three brokers or more); settings that would let one lost broker
 * lose an acknowledged event stop the process (TopicSettingsError) unless allowed. Several processes start together:
 * the one that finds the topics just created by another must still wait for their leaders, or its first fetch fails.
 * Topics that exist get the settings again where they differ, so a changed FOLIO_LOG_RETENTION_DAYS takes effect at
 * the next start; their replication cannot change that way, and one too small for min.insync stops the process too.
 */
export async function ensureTopics(kafka: KafkaClients, topics: Topics, plan: TopicPlan): Promise<void> {
  const admin = kafka.admin();
  try {
    const names = allTopics(topics);
    const { brokers } = await admin.metadata({ topics: [] });
    const durability = topicDurability(brokers.size, { replication: plan.replication ?? null, minInsync: plan.minInsync ?? null, allowUnsafe: plan.allowUnsafe ?? false });
    const existing = new Set(await admin.listTopics());
    const missing = names.filter((t) => !existing.has(t));
    const settings = { ...topicConfig(plan.retentionMs ?? -1), 'min.insync.replicas': String(durability.minInsync) };
    if (missing.length > 0) await create(admin, missing, plan.partitions, durability.replication, settings);
    const replicas = await waitForLeaders(admin, names);
    const problems = names.flatMap((name) => existingTopicProblem(name, replicas.get(name)!, durability) ?? []);
    if (problems.length > 0) throw new TopicSettingsError(problems.join('; '));
    await reconfigure(admin, names.filter((t) => existing.has(t)), settings);
  } finally {
    await admin.close();
  }
}

async function create(admin: Admin, missing: string[], partitions: number, replicas: number, settings: Record<string, string>): Promise<void> {
  try {
    await admin.createTopics({
      topics: missing,
      partitions,
      replicas,
      configs: Object.entries(settings).map(([name, value]) => ({ name, value })),
    });
  } catch (error) {
    // Two processes starting together may both try to create a topic; the loser sees it exists.
    if (!mentions(error, 'TOPIC_ALREADY_EXISTS')) throw error;
  }
}

/** Gives existing topics Folio's settings where theirs differ (all of them at once: alterConfigs replaces a topic's set). */
async function reconfigure(admin: Admin, names: string[], settings: Record<string, string>): Promise<void> {
  if (names.length === 0) return;
  const described = await admin.describeConfigs({
    resources: names.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: Object.keys(settings) })),
    includeSynonyms: false,
  });
  const differing = described.filter((r) => r.configs.some((c) => settings[c.name] !== c.value)).map((r) => r.resourceName);
  if (differing.length === 0) return;
  await admin.alterConfigs({
    validateOnly: false,
    resources: differing.map((name) => ({
      resourceType: ConfigResourceTypes.TOPIC,
      resourceName: name,
      configs: Object.entries(settings).map(([n, value]) => ({ name: n, value })),
    })),
  });
}

/** Waits until every partition of these topics has a leader; returns each topic's fewest replicas of a partition. */
async function waitForLeaders(admin: Admin, names: string[], timeoutMs = 30_000): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics } = await admin.metadata({ topics: names, forceUpdate: true });
      if (names.every((n) => (topics.get(n)?.partitions.length ?? 0) > 0 && topics.get(n)!.partitions.every((p) => p.leader >= 0))) {
        return new Map(names.map((n) => [n, Math.min(...topics.get(n)!.partitions.map((p) => p.replicas.length))]));
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`topics ${names.join(', ')} have no leaders after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether an error, or one it gathers or was caused by, carries this Kafka error name. */
export function mentions(error: unknown, apiId: string): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    const x = e as { apiId?: unknown; cause?: unknown; errors?: unknown };
    return x.apiId === apiId || visit(x.cause) || (Array.isArray(x.errors) && x.errors.some(visit));
  };
  return visit(error);
}
