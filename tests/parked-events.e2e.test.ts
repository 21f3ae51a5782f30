import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createKafka, EventPublisher, type KafkaClients } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { EventCodec, jobProcessing, newJobId, topicNames } from '@folio/events';
import { Stack } from './support/stack.ts';
import { historyOf, snapshot, startJob } from './support/jobs.ts';

const run = promisify(execFile);

/**
 * An event the projector can never apply — a JobProcessing whose worker a constraint refuses (the fault), crafted and
 * written to the log — and a message that is not an event at all. One partition a topic, so what follows them in the
 * log shares their partition and must still flow.
 */
describe('events that can never be applied are parked, and mended by an operator', () => {
  let stack: Stack;
  let key: string;
  let kafka: KafkaClients;
  let publisher: EventPublisher;
  const folio = (...args: string[]) => run(process.execPath, ['node_modules/.bin/folio', ...args], { env: { ...process.env, ...stack.env } });

  beforeAll(async () => {
    // Conversions are held 6 s, so the crafted event reaches the log while its job is still processing.
    stack = await Stack.start({ env: { FOLIO_TOPIC_PARTITIONS: '1', FOLIO_FAULT_RENDER_DELAY_MS: '6000' } });
    key = await stack.createKey('paid');
    kafka = createKafka({ clientId: 'parked-events-test', brokers: stack.env.KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') });
    publisher = new EventPublisher(kafka, new EventCodec(stack.env.SCHEMA_REGISTRY_URL!, topicNames(stack.env.FOLIO_TOPIC_PREFIX)), topicNames(stack.env.FOLIO_TOPIC_PREFIX));
    await publisher.connect();
  });
  afterAll(async () => {
    await publisher?.disconnect();
    await stack?.stop();
  });

  it('parks them with their place and reason, fails their job, moves the partition on, and re-applies after the fix', async () => {
    const topics = topicNames(stack.env.FOLIO_TOPIC_PREFIX);
    await stack.sql`alter table job_history add constraint fixture_fault check (worker is distinct from 'fixture-worker')`;

    const victim = await startJob(stack, key, 'the job whose event cannot be applied');
    await stack.until(async () => (await stack.request('GET', `/v2/jobs/${victim}`, { key })).body.status === 'processing', 30_000, 'the job to be processing');
    const crafted = jobProcessing(victim, 7, 'fixture-worker');
    await publisher.publish(crafted);
    // Not an event at all, on the request lane (renderer and projector both read it), keyed by a job id.
    const garbageJob = newJobId();
    const raw = kafka.producer();
    await raw.send({ messages: [{ topic: topics.queuedAsync, key: Buffer.from(garbageJob), value: Buffer.from('not an event at all') }] });
    await raw.close();
    const behind = await startJob(stack, key, 'a job behind them in the same partitions');

    // The job of the parked event ends failed, clearly; the rule of the first terminal event holds.
    const failed = await stack.waitForJob(key, victim, 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'render_failed', message: expect.stringMatching(/set it aside for an operator \(parked event \d+\)/), retryable: true });
    // The partitions moved on.
    expect((await stack.waitForJob(key, behind, 60_000)).status).toBe('succeeded');

    const parked = await stack.until(async () => {
      const rows = await stack.sql`select * from parked_events order by id`;
      return rows.length === 3 && rows;
    }, 30_000, 'three parked records');
    const byConsumer = Object.fromEntries(parked.map((r) => [`${r.consumer}:${r.event_type ?? 'undecodable'}`, r]));
    expect(Object.keys(byConsumer).sort()).toEqual(['folio-projector:JobProcessing', 'folio-projector:undecodable', 'folio-renderer-async:undecodable']);
    const fault = byConsumer['folio-projector:JobProcessing']!;
    expect(fault).toMatchObject({ topic: topics.lifecycle, partition: 0, job_id: victim, tries: 3, resolved_at: null });
    expect(fault.error).toMatch(/check constraint "fixture_fault"/);
    expect(Date.now() - new Date(fault.parked_at).getTime()).toBeLessThan(120_000);
    expect(byConsumer['folio-renderer-async:undecodable']).toMatchObject({ topic: topics.queuedAsync, job_id: garbageJob });
    expect(failed.error.message).toContain(`parked event ${fault.id}`);

    // Parked events are visible to monitoring too; they do not make the service unready (its partitions flow).
    const ready = await stack.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.consumers.parked).toBe(3);

    const listed = (await folio('parked', 'list')).stdout;
    expect(listed).toContain(`#${fault.id}`);
    expect(listed).toContain(`${topics.lifecycle}/0@${fault.offset}`);
    expect(listed).toContain(`job ${victim}`);
    expect(listed.trim().split('\n')).toHaveLength(3);

    // Before the fault is mended a retry fails again and says so.
    await expect(folio('parked', 'retry', String(fault.id))).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('still parked') });

    await stack.sql`alter table job_history drop constraint fixture_fault`;
    const retried = await folio('parked', 'retry', String(fault.id));
    expect(retried.stdout).toMatch(new RegExp(`#${fault.id} applied: JobProcessing of job ${victim} applied in its place`));
    const history = await historyOf(stack, victim);
    expect(history.find((e) => e.event_id === crafted.event_id)).toMatchObject({ worker: 'fixture-worker', attempt: 7 });
    // Its end does not change; a later retry of the same event changes nothing.
    expect((await stack.request('GET', `/v2/jobs/${victim}`, { key })).body).toEqual(failed);
    expect((await folio('parked', 'retry', String(fault.id))).stdout).toContain('resolved already');
    // The garbage stays parked: nothing can ever read it.
    await expect(folio('parked', 'retry', '--all')).rejects.toMatchObject({ code: 1 });
    expect((await folio('parked', 'list')).stdout.trim().split('\n')).toHaveLength(2);

    // Events are still the truth: a rebuild after the fix gives exactly the rows the live projection has.
    const [projector] = stack.running('projector');
    await projector!.stop();
    const live = await snapshot(stack);
    await run(process.execPath, ['node_modules/.bin/folio', 'replay'], { env: { ...process.env, ...stack.env } });
    expect(await snapshot(stack)).toEqual(live);
  });
});
