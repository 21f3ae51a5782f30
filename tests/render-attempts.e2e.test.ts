import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { connect, migrateDatabase, type Database } from '@folio/db';
import { newJobId } from '@folio/events';
import { countIsolatedRun, startAttempt, uncountRun } from '../apps/renderer/src/attempts.ts';
import { createDatabase } from '../infra/services/index.ts';

/** How renderers count a job's starts in Postgres, across processes (`render_attempts`). */
describe('counting the starts of a job', () => {
  let database: Database;

  beforeAll(async () => {
    const url = await createDatabase(inject('infra').DATABASE_URL!, `attempts_${Date.now().toString(36)}`);
    await migrateDatabase(url);
    database = connect(url);
  });
  afterAll(() => database?.close());

  it('counts a first run at once, and a run after one that never finished only once it runs alone', async () => {
    const jobId = newJobId();
    const first = await startAttempt(database.sql, jobId, 'w1');
    expect(first).toMatchObject({ attempt: 1, counted: 1, isolate: false, settled: false });
    const second = await startAttempt(database.sql, jobId, 'w2');
    expect(second).toMatchObject({ attempt: 2, counted: 1, isolate: true });
    expect(await countIsolatedRun(database.sql, jobId, 3)).toBe(2);
  });

  it('stops counting one past the limit, so a copy of the job read again fails it with the same count', async () => {
    const jobId = newJobId();
    await startAttempt(database.sql, jobId, 'w');
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await startAttempt(database.sql, jobId, `w${i}`);
      counts.push(await countIsolatedRun(database.sql, jobId, 3));
    }
    // The third count fails the job (4 > 3); the copies that follow it, before its offset was committed, see 4 too.
    expect(counts).toEqual([2, 3, 4, 4, 4]);
  });

  it('takes back a run that its consumer stopped, never below nothing', async () => {
    const jobId = newJobId();
    await startAttempt(database.sql, jobId, 'w');
    await uncountRun(database.sql, jobId);
    await uncountRun(database.sql, jobId);
    const [row] = await database.sql`select counted from render_attempts where job_id = ${jobId}`;
    expect(row!.counted).toBe(0);
  });
});
