import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { connect, migrateDatabase, type Database } from '@folio/db';
import { DEFAULT_OPTIONS, jobProcessing, jobQueued, jobSucceeded, newJobId } from '@folio/events';
import { applyBatch, JOB_CHANNEL } from '@folio/projections';
import { createDatabase } from '../infra/services/index.ts';


const result = { output: 'text' as const, content: 'x', content_ref: null, file: null, document: { title: '', url: null, site: null, author: null, date: null, excerpt: null, image: null, word_count: 1 } };

describe('applying events to Postgres', () => {
  let database: Database;
  const notified: string[] = [];

  beforeAll(async () => {
    const url = await createDatabase(inject('infra').DATABASE_URL!, `store_${Date.now().toString(36)}`);
    await migrateDatabase(url);
    database = connect(url);
    await database.sql.listen(JOB_CHANNEL, (payload) => notified.push(payload));
  });
  afterAll(() => database?.close());

  const queued = (jobId: string) =>
    jobQueued({ job_id: jobId, request_id: 'r', key_id: '11111111-1111-4111-8111-111111111111', lane: 'sync', output: 'text', input: { kind: 'markdown', text: 'x', ref: null }, options: DEFAULT_OPTIONS, webhook_url: null, expires_at: new Date(Date.now() + 3600_000).toISOString() });

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
});
