import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createKafka } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { CURRENT_VERSION, EventCodec, jobProcessing, SUBJECT_COMPATIBILITY, topicNames, type JobEventType, type Topics } from '@folio/events';
import { Stack } from './support/stack.ts';

const FIXTURES = new URL('../packages/events/fixtures/first-versions/', import.meta.url);
const firstSchema = (type: string) => readFileSync(new URL(`${type}.v1.avsc`, FIXTURES), 'utf8');
const fixtureLog = JSON.parse(readFileSync(new URL('log.json', FIXTURES), 'utf8')) as Array<{
  topic: keyof Topics;
  type: JobEventType;
  payload: { job_id: string };
}>;

describe('schema evolution', () => {
  let stack: Stack;
  let topics: Topics;

  beforeAll(async () => {
    // The projector alone: the log is written by the test, in release 1's encoding.
    stack = await Stack.start({ without: ['api', 'renderer', 'dispatcher'], env: { FOLIO_SWEEP_INTERVAL: '3600' } });
    topics = topicNames(stack.env.FOLIO_TOPIC_PREFIX);
  });
  afterAll(() => stack?.stop());

  it("folds a log written with every event's first schema version into today's read models", async () => {
    // Release 1's writers: its schemas (frozen fixtures, not today's code) registered under their subjects, the
    // events encoded with them, produced like any writer did.
    const registry = new SchemaRegistry({ host: stack.env.SCHEMA_REGISTRY_URL! });
    const ids = new Map<string, number>();
    const producer = createKafka({ clientId: 'schema-evolution-test', brokers: stack.env.KAFKA_BROKERS!.split(','), logger: createLogger('test', 'silent') }).producer();
    for (const entry of fixtureLog) {
      const topic = topics[entry.topic];
      const subject = EventCodec.subject(topic, entry.type, 1);
      if (!ids.has(subject)) ids.set(subject, (await registry.register({ type: SchemaType.AVRO, schema: firstSchema(entry.type) }, { subject })).id);
      const value = await registry.encode(ids.get(subject)!, entry.payload);
      await producer.send({ messages: [{ topic, key: Buffer.from(entry.payload.job_id), value }] });
    }
    await producer.close();

    await stack.until(async () => {
      const [{ n }] = (await stack.sql`select count(*)::int as n from job_history`) as unknown as [{ n: number }];
      return n === fixtureLog.length;
    }, 60_000, 'the fixture log to be projected');

    const jobs = await stack.sql`select job_id, key_id, status, lane, output, attempts, created_at, expires_at, result, error from jobs order by job_id`;
    expect(jobs.map((j) => [j.job_id.slice(-1), j.status, j.lane, j.output, j.attempts])).toEqual([
      ['a', 'succeeded', 'sync', 'html', 1],
      ['b', 'failed', 'sync', 'text', 1],
      ['c', 'succeeded', 'sync', 'markdown', 2],
    ]);
    // v1's JobQueued had no expiry: the upcaster gives it release 1's 48 hours.
    expect(new Date(jobs[0]!.expires_at).getTime() - new Date(jobs[0]!.created_at).getTime()).toBe(48 * 3600_000);
    expect(jobs[0]!.result).toMatchObject({ output: 'html', content: '<h1>A, written by release 1</h1>' });
    expect(jobs[1]!.error).toEqual({ code: 'parse_failed', message: 'no article in the page', retryable: false });

    const history = await stack.sql`select job_id, type, version, effective from job_history order by job_id, occurred_at`;
    // Stored as today's shape: JobQueued upcast to its current version; the late success of a failed job kept but
    // without effect.
    expect(history.filter((h) => h.type === 'JobQueued').every((h) => h.version === CURRENT_VERSION.JobQueued)).toBe(true);
    expect(CURRENT_VERSION.JobQueued).toBeGreaterThan(1);
    expect(history.filter((h) => !h.effective).map((h) => [h.job_id.slice(-1), h.type])).toEqual([['b', 'JobSucceeded']]);
    const deliveries = await stack.sql`select attempt, status_code, outcome from delivery_attempts order by attempt`;
    expect(deliveries.map((d) => [d.attempt, d.status_code, d.outcome])).toEqual([
      [1, 503, 'retrying'],
      [2, 200, 'delivered'],
    ]);
  });

  it('holds every event subject to FULL_TRANSITIVE: the registry refuses an incompatible change of a released version', async () => {
    const url = stack.env.SCHEMA_REGISTRY_URL!;
    // The first test registered this subject as release 1 did (under the client's default rule): a writer of
    // today holds it to FULL_TRANSITIVE, and a second process (nothing cached) registers under that rule.
    await new EventCodec(url, topics).encode(jobProcessing('018f0000-0000-7000-8000-0000000000dd', 1, 'renderer-a'));
    await new EventCodec(url, topics).encode(jobProcessing('018f0000-0000-7000-8000-0000000000ee', 1, 'renderer-b'));
    const subject = EventCodec.subject(topics.lifecycle, 'JobProcessing', 1);
    const config = (await (await fetch(`${url}/config/${subject}`)).json()) as { compatibilityLevel: string };
    expect(config.compatibilityLevel).toBe(SUBJECT_COMPATIBILITY);

    const released = JSON.parse(firstSchema('JobProcessing')) as { fields: Array<{ name: string }> };
    const register = (fields: unknown[]) =>
      fetch(`${url}/subjects/${subject}/versions`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
        body: JSON.stringify({ schema: JSON.stringify({ ...released, fields }) }),
      });
    // Renaming a field in place (worker → renderer): events already written would not read.
    const renamed = await register(released.fields.map((f) => (f.name === 'worker' ? { ...f, name: 'renderer' } : f)));
    expect(renamed.status).toBe(409);
    // A new field without a default: refused too.
    const required = await register([...released.fields, { name: 'host', type: 'string' }]);
    expect(required.status).toBe(409);
    // Retyping a field (attempt int → string): refused.
    const retyped = await register(released.fields.map((f) => (f.name === 'attempt' ? { ...f, type: 'string' } : f)));
    expect(retyped.status).toBe(409);
  });
});
