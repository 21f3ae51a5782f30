import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { BlobNotFoundError, S3Store } from '@folio/storage';
import { Stack } from './support/stack.ts';

/**
 * Jobs are readable for FOLIO_JOB_TTL and file links valid for FOLIO_FILE_TTL; then a periodic sweep deletes what
 * they held (the row, its history, the stored input, result and file), in local-disk storage and in S3.
 */
const TTL = { FOLIO_JOB_TTL: '4', FOLIO_FILE_TTL: '4', FOLIO_SWEEP_INTERVAL: '1', FOLIO_CLAIM_CHECK_BYTES: '256' };

async function expiresEverything(stack: Stack, exists: (storageKey: string) => Promise<boolean>) {
  const key = await stack.createKey('free');
  const pdf = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# Short-lived\n\nA page.', output: 'pdf', async: true } });
  const long = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'Long enough to be stored. '.repeat(40), output: 'text', async: true } });
  const job = await stack.waitForJob(key, pdf.body.job_id);
  await stack.waitForJob(key, long.body.job_id);
  expect(job.status).toBe('succeeded');
  const fileUrl: string = job.result.file_url;
  expect((await fetch(fileUrl)).status).toBe(200);
  const ids = [pdf.body.job_id, long.body.job_id];
  expect(await exists(`files/${pdf.body.job_id}.pdf`)).toBe(true);
  expect(await exists(`inputs/${long.body.job_id}`)).toBe(true);
  expect(await exists(`results/${long.body.job_id}/content`)).toBe(true);

  await stack.until(async () => (await stack.request('GET', `/v2/jobs/${ids[0]}`, { key })).status === 404, 30_000, 'the job to expire');
  const gone = await stack.request('GET', `/v2/jobs/${ids[0]}`, { key });
  expect(gone.body.error).toMatchObject({ code: 'job_not_found', retryable: false });

  // Deleted, not hidden: rows and stored objects are gone; the meter keeps its rows.
  await stack.until(async () => {
    const [{ count }] = (await stack.sql`select count(*)::int from jobs where job_id in ${stack.sql(ids)}`) as unknown as [{ count: number }];
    return count === 0;
  }, 30_000, 'the sweep');
  const [{ history }] = (await stack.sql`select count(*)::int as history from job_history where job_id in ${stack.sql(ids)}`) as unknown as [{ history: number }];
  expect(history).toBe(0);
  expect((await fetch(fileUrl)).status).not.toBe(200);
  expect(await exists(`files/${pdf.body.job_id}.pdf`)).toBe(false);
  expect(await exists(`inputs/${long.body.job_id}`)).toBe(false);
  expect(await exists(`results/${long.body.job_id}/content`)).toBe(false);
  const [{ counted }] = (await stack.sql`select count(*)::int as counted from usage where job_id in ${stack.sql(ids)}`) as unknown as [{ counted: number }];
  expect(counted).toBe(2);
}

describe('expiry on local disk', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: TTL });
  });
  afterAll(() => stack?.stop());

  it('reads a job until its TTL, then 404s it, and the sweep deletes its rows, input, result and file', async () => {
    await expiresEverything(stack, async (storageKey) => existsSync(join(stack.env.FOLIO_STATE_DIR!, 'storage', storageKey)));
  });

  it('also sweeps a row an event made after its job was swept (no JobQueued, so no expiry), and its file', async () => {
    // What the projector makes of a late JobSucceeded for a job already swept: a row with no key and no expiry.
    const id = uuidv7({ msecs: Date.now() - 60_000 });
    await stack.sql`insert into jobs (job_id, status) values (${id}, 'succeeded')`;
    const file = join(stack.env.FOLIO_STATE_DIR!, 'storage', 'files', `${id}.pdf`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '%PDF-1.7 late');
    await stack.until(async () => (await stack.sql`select 1 from jobs where job_id = ${id}`).length === 0, 30_000, 'the sweep');
    expect(existsSync(file)).toBe(false);
  });
});

describe('expiry in S3', () => {
  const infra = inject('infra');
  let stack: Stack;
  const s3 = new S3Store({
    endpoint: infra.S3_ENDPOINT!,
    bucket: infra.S3_BUCKET!,
    region: infra.S3_REGION!,
    accessKeyId: infra.AWS_ACCESS_KEY_ID,
    secretAccessKey: infra.AWS_SECRET_ACCESS_KEY,
    ttlSeconds: 4,
  });
  beforeAll(async () => {
    stack = await Stack.start({
      env: {
        ...TTL,
        S3_ENDPOINT: infra.S3_ENDPOINT!,
        S3_BUCKET: infra.S3_BUCKET!,
        S3_REGION: infra.S3_REGION!,
        AWS_ACCESS_KEY_ID: infra.AWS_ACCESS_KEY_ID!,
        AWS_SECRET_ACCESS_KEY: infra.AWS_SECRET_ACCESS_KEY!,
      },
    });
  });
  afterAll(() => stack?.stop());

  it('deletes the objects of expired jobs from the bucket', async () => {
    await expiresEverything(stack, async (storageKey) =>
      s3.get(storageKey).then(
        () => true,
        (error) => {
          if (error instanceof BlobNotFoundError) return false;
          throw error;
        },
      ),
    );
  });
});
