import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { consumeEvents, createKafka, ensureTopics, EventPublisher, type KafkaClients, type RunningConsumer } from '@folio/event-log';
import { EventCodec, jobProcessing, newJobId, topicNames } from '@folio/events';
import { createLogger } from '@folio/logging';

/**
 * The consumer loop (`consumeEvents`) never leaves a group without a member for good. Here the broker itself throws the
 * member out (an operator removing it, or a session the broker gave up on): the member must join again and read on
 * from the group's committed offsets, skipping nothing and applying nothing it had committed again.
 */
describe('a consumer the broker drops from its group', () => {
  const infra = inject('infra');
  const prefix = `rejoin${randomBytes(3).toString('hex')}.`;
  const topics = topicNames(prefix);
  const groupId = `${prefix}group`;
  let kafka: KafkaClients;
  let publisher: EventPublisher;
  let running: RunningConsumer | undefined;
  const seen: string[] = [];

  beforeAll(async () => {
    kafka = createKafka({ clientId: 'rejoin-test', brokers: infra.KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') });
    await ensureTopics(kafka, topics, { partitions: 1 });
    const codec = new EventCodec(infra.SCHEMA_REGISTRY_URL!, topics);
    publisher = new EventPublisher(kafka, codec, topics);
    await publisher.connect();
    running = await consumeEvents({
      kafka,
      codec,
      groupId,
      topics: [topics.lifecycle],
      sessionTimeoutMs: 6000,
      logger: createLogger('test', 'silent'),
      what: 'rejoin test',
      handle: async ({ events }) => {
        seen.push(...events.map((e) => e.event.job_id));
      },
      unapplicable: async () => {},
    });
  });
  afterAll(async () => {
    await running?.stop();
    await publisher?.disconnect();
  });

  const until = async (what: string, probe: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 60_000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('joins again and reads on from the committed offsets', async () => {
    const first = newJobId();
    await publisher.publish(jobProcessing(first, 1, 'w'));
    await until('the first event', () => seen.includes(first));
    const admin = kafka.admin();
    try {
      await until('its offset to be committed', async () => {
        const [group] = await admin.listConsumerGroupOffsets({ groups: [groupId] });
        return group?.topics.some((t) => t.partitions.some((p) => p.committedOffset === 1n)) ?? false;
      });
      await admin.removeMembersFromConsumerGroup({ groupId, members: null });
      await until('the group to have no member', async () => (await admin.describeGroups({ groups: [groupId] })).get(groupId)?.members.size === 0);
      const second = newJobId();
      await publisher.publish(jobProcessing(second, 1, 'w'));
      // Its fetches may still read a moment before its next heartbeat learns it was dropped: what counts is that it is
      // a member again, read the event, and committed it as one.
      await until('the member to be back in the group', async () => (await admin.describeGroups({ groups: [groupId] })).get(groupId)?.members.size === 1);
      await until('the second event', () => seen.includes(second));
      await until('its offset to be committed by the member', async () => {
        const [group] = await admin.listConsumerGroupOffsets({ groups: [groupId] });
        return group?.topics.some((t) => t.partitions.some((p) => p.committedOffset === 2n)) ?? false;
      });
      expect(seen).toEqual([first, second]);
    } finally {
      await admin.close();
    }
  });
});
