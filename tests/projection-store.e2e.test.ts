import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { connect, migrateDatabase, type Database } from '@folio/db';
import { DEFAULT_OPTIONS, jobProcessing, jobQueued, jobSucceeded, newJobId, webhookDeliveryAttempted } from '@folio/events';
import { applyEvents, JOB_CHANNEL, reapplyEvent, type LoggedEvent } from '@folio/projections';
import { CALLBACK_CHANNEL } from '@folio/webhooks';
import { createDatabase } from '../infra/services/index.ts';


const result = { output: 'text' as const, content: 'x', content_ref: null, file: null, document: { title: '', url: null, site: null, author: null, date: null, excerpt: null, image: null, word_count: 1 } };

/** One partition's events applied as a batch, its checkpoint moved to `nextOffset`. */
const applyBatch = (sql: Database['sql'], topic: string, partition: number, logged: LoggedEvent[], nextOffset: number) =>
  applyEvents(sql, logged, [{ topic, partition, next_offset: nextOffset }]);

describe('applying events to Postgres', () => {
  let database: Database;
  const notified: string[] = [];
  const callbacks: string[] = [];

  beforeAll(async () => {
    const url = await createDatabase(inject('infra').DATABASE_URL!, `store_${Date.now().toString(36)}`);
    await migrateDatabase(url);
    database = connect(url);
    await database.sql.listen(JOB_CHANNEL, (payload) => notified.push(payload));
    await database.sql.listen(CALLBACK_CHANNEL, (payload) => callbacks.push(payload));
  });
  afterAll(() => database?.close());

  const KEY = '11111111-1111-4111-8111-111111111111';
  const queued = (jobId: string, webhookUrl: string | null = null, keyId = KEY) =>
    jobQueued({ job_id: jobId, request_id: 'r', key_id: keyId, lane: webhookUrl ? 'async' : 'sync', output: 'text', input: { kind: 'markdown', text: 'x', ref: null }, options: DEFAULT_OPTIONS, webhook_url: webhookUrl, expires_at: new Date(Date.now() + 3600_000).toISOString() });

  it('announces a job only once its request is projected, even when its lifecycle arrives first', async () => {
    const jobId = newJobId();
    const lifecycle = [jobProcessing(jobId, 1, 'w'), jobSucceeded(jobId, 1, 'w', result, 1)];
    await applyBatch(database.sql, 'lifecycle', 0, lifecycle.map((event, offset) => ({ topic: 'lifecycle', partition: 0, offset, event })), 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(notified.filter((n) => n.startsWith(jobId))).toEqual([]);

    await applyBatch(database.sql, 'queued', 0, [{ topic: 'queued', partition: 0, offset: 0, event: queued(jobId) }], 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(notified.filter((n) => n.startsWith(jobId))).toEqual([`${jobId}:succeeded`]);
  });

  it('applies a redelivered batch once, and an event written twice once', async () => {
    const jobId = newJobId();
    const q = queued(jobId);
    const p = jobProcessing(jobId, 1, 'w');
    const batch = [q, p, p].map((event, i) => ({ topic: 'again', partition: 0, offset: i, event }));
    expect(await applyBatch(database.sql, 'again', 0, batch, 3)).toBe(2);
    expect(await applyBatch(database.sql, 'again', 0, batch, 3)).toBe(0);
    const [row] = await database.sql`select status, attempts from jobs where job_id = ${jobId}`;
    expect(row).toEqual({ status: 'processing', attempts: 1 });
    const [{ n }] = (await database.sql`select count(*)::int as n from job_history where job_id = ${jobId}`) as unknown as [{ n: number }];
    expect(n).toBe(2);
  });

  it('keeps concurrent partitions touching one new job from overwriting each other', async () => {
    const jobId = newJobId();
    await Promise.all([
      applyBatch(database.sql, 'race-q', 0, [{ topic: 'race-q', partition: 0, offset: 0, event: queued(jobId) }], 1),
      applyBatch(database.sql, 'race-l', 0, [{ topic: 'race-l', partition: 0, offset: 0, event: jobProcessing(jobId, 1, 'w') }, { topic: 'race-l', partition: 0, offset: 1, event: jobSucceeded(jobId, 1, 'w', result, 1) }], 2),
    ]);
    const [row] = await database.sql`select status, key_id, attempts from jobs where job_id = ${jobId}`;
    expect(row).toEqual({ status: 'succeeded', key_id: '11111111-1111-4111-8111-111111111111', attempts: 1 });
  });

  it('applies a batch of many partitions in one transaction, each checkpoint with it, and skips what a checkpoint passed', async () => {
    const jobs = [newJobId(), newJobId(), newJobId()];
    const logged: LoggedEvent[] = [
      ...jobs.map((id, i) => ({ topic: 'multi-q', partition: i, offset: 0, event: queued(id) })),
      ...jobs.map((id, i) => ({ topic: 'multi-l', partition: 0, offset: i, event: jobSucceeded(id, 1, 'w', result, 1) })),
    ];
    const ends = [0, 1, 2].map((partition) => ({ topic: 'multi-q', partition, next_offset: 1 })).concat([{ topic: 'multi-l', partition: 0, next_offset: 3 }]);
    expect(await applyEvents(database.sql, logged, ends)).toBe(6);
    const checkpoints = await database.sql`select topic, partition, next_offset from projection_checkpoints where topic like 'multi-%' order by topic, partition`;
    expect(checkpoints.map((c) => `${c.topic}/${c.partition}@${c.next_offset}`)).toEqual(['multi-l/0@3', 'multi-q/0@1', 'multi-q/1@1', 'multi-q/2@1']);
    const rows = await database.sql`select status from jobs where job_id = any(${jobs}::uuid[])`;
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // The same batch again (a redelivery after a crash before the offsets were committed) changes nothing.
    expect(await applyEvents(database.sql, logged, ends)).toBe(0);
  });

  it('counts the successes of a batch once each, numbered on in job order within their key\'s month', async () => {
    const keyId = '22222222-2222-4222-8222-222222222222';
    const jobs = [newJobId(), newJobId(), newJobId()].sort();
    let offset = 0;
    const logged = jobs.flatMap((id) => [
      { topic: 'meter-q', partition: 0, offset: offset++, event: queued(id, null, keyId) },
      { topic: 'meter-q', partition: 0, offset: offset++, event: jobSucceeded(id, 1, 'w', result, 1) },
    ]);
    await applyBatch(database.sql, 'meter-q', 0, logged, offset);
    const counted = await database.sql`select job_id, ordinal from usage where key_id = ${keyId} order by ordinal`;
    expect(counted.map((r) => [r.job_id, r.ordinal])).toEqual(jobs.map((id, i) => [id, i + 1]));
    // A later success of the same key numbers on; a job counted already keeps its number.
    const fourth = newJobId();
    await applyBatch(database.sql, 'meter-q', 0, [...logged, { topic: 'meter-q', partition: 0, offset, event: queued(fourth, null, keyId) }, { topic: 'meter-q', partition: 0, offset: offset + 1, event: jobSucceeded(fourth, 1, 'w', result, 1) }], offset + 2);
    const all = await database.sql`select job_id, ordinal from usage where key_id = ${keyId} order by ordinal`;
    expect(all.map((r) => [r.job_id, r.ordinal])).toEqual([...jobs, fourth].map((id, i) => [id, i + 1]));
  });

  it('owes a callback in the transaction that ends a job with a webhook_url, once, whichever topic comes first', async () => {
    const hook = 'https://example.com/hook';
    const [early, late, plain] = [newJobId(), newJobId(), newJobId()];
    // early: its request is projected before its end; late: its end before its request; plain: no webhook_url.
    await applyBatch(database.sql, 'hook-q', 0, [{ topic: 'hook-q', partition: 0, offset: 0, event: queued(early, hook) }, { topic: 'hook-q', partition: 0, offset: 1, event: queued(plain) }], 2);
    const before = callbacks.length;
    await applyBatch(database.sql, 'hook-l', 0, [early, late, plain].map((id, i) => ({ topic: 'hook-l', partition: 0, offset: i, event: jobSucceeded(id, 1, 'w', result, 1) })), 3);
    expect((await database.sql`select job_id from delivery_schedule where job_id = any(${[early, late, plain]}::uuid[])`).map((r) => r.job_id)).toEqual([early]);
    await applyBatch(database.sql, 'hook-q', 0, [{ topic: 'hook-q', partition: 0, offset: 2, event: queued(late, hook) }], 3);
    const owed = await database.sql`select job_id, state, url from delivery_schedule where job_id = any(${[early, late, plain]}::uuid[]) order by job_id`;
    expect(owed.map((r) => [r.job_id, r.state, r.url])).toEqual([early, late].sort().map((id) => [id, 'pending', hook]));
    await new Promise((r) => setTimeout(r, 200));
    // The dispatcher is told at each commit that owed callbacks.
    expect(callbacks.length - before).toBe(2);
    // A second terminal event (a late duplicate) owes nothing more.
    await applyBatch(database.sql, 'hook-l', 0, [{ topic: 'hook-l', partition: 0, offset: 3, event: jobSucceeded(early, 2, 'w', result, 1) }], 4);
    const [{ n }] = (await database.sql`select count(*)::int as n from delivery_schedule where job_id = ${early}`) as unknown as [{ n: number }];
    expect(n).toBe(1);
  });

  it('keeps a success in the history without its content, which the job\'s row holds, also when a parked event is folded in', async () => {
    const jobId = newJobId();
    const success = jobSucceeded(jobId, 1, 'w', { ...result, content: 'the whole document' }, 1);
    await applyBatch(database.sql, 'lean', 0, [{ topic: 'lean', partition: 0, offset: 0, event: queued(jobId, 'https://example.com/h') }, { topic: 'lean', partition: 0, offset: 1, event: success }], 2);
    const [history] = await database.sql`select data from job_history where event_id = ${success.event_id}`;
    expect(history!.data.result).toEqual({ output: 'text', content_ref: null, file: null, document: result.document });
    // An attempt parked and retried refolds the job from its history: the row keeps its result whole.
    const attempt = webhookDeliveryAttempted(jobId, { attempt: 1, worker: 'd', url: 'https://example.com/h', status_code: 200, error: null, duration_ms: 3, outcome: 'delivered', next_attempt_at: null });
    expect(await reapplyEvent(database.sql, { topic: 'lean', partition: 0, offset: 5, event: attempt })).toBe('applied');
    const [row] = await database.sql`select status, result from jobs where job_id = ${jobId}`;
    expect(row).toMatchObject({ status: 'succeeded', result: { content: 'the whole document' } });
  });
});
