import { describe, expect, it } from 'vitest';
import { Folio } from './client.ts';
import { FolioError } from './errors.ts';
import { failed, fakeApi, fileResult, JOB_ID, type Reply } from './test-support/fake-api.ts';

const job = (status: string, extra: object = {}) => ({ status, job_id: JOB_ID, created_at: '2026-01-01T00:00:00.000Z', ...extra });
const unfinished = (status: 'queued' | 'processing', retryAfter: string): Reply => ({ status: 200, body: job(status), headers: { 'retry-after': retryAfter } });
const succeeded: Reply = { status: 200, body: job('succeeded', { finished_at: '2026-01-01T00:00:01.000Z', result: fileResult }) };

const folioWith = (replies: Reply[]) => {
  const api = fakeApi(replies);
  return { folio: new Folio({ apiKey: 'k', baseUrl: 'https://folio.example', fetch: api.fetch, backoff: { baseDelayMs: 1 } }), requests: api.requests };
};

describe('jobs', () => {
  it('get reads GET /v2/jobs/{id}; an unknown job is job_not_found', async () => {
    const { folio, requests } = folioWith([succeeded, { status: 404, body: failed('job_not_found', false) }]);
    expect((await folio.jobs.get(JOB_ID)).status).toBe('succeeded');
    expect(requests[0]!.url).toBe(`https://folio.example/v2/jobs/${JOB_ID}`);
    expect(requests[0]!.method).toBe('GET');
    await expect(folio.jobs.get(JOB_ID)).rejects.toMatchObject({ code: 'job_not_found', status: 404 });
  });

  it('wait polls after each Retry-After until the job is finished, telling onPoll what each poll found', async () => {
    const { folio, requests } = folioWith([unfinished('queued', '0'), unfinished('processing', '1'), succeeded]);
    const started = Date.now();
    const seen: string[] = [];
    const finished = await folio.jobs.wait(JOB_ID, { onPoll: (job) => seen.push(job.status) });
    expect(finished.status).toBe('succeeded');
    if (finished.status === 'succeeded') expect(finished.result).toEqual(fileResult);
    expect(requests).toHaveLength(3);
    expect(seen).toEqual(['queued', 'processing', 'succeeded']);
    // 0 s is floored to a short pause (no tight loop), 1 s is honoured.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1150);
  });

  it('wait returns a failed job with its error (the conversion’s outcome, not a thrown error)', async () => {
    const { folio } = folioWith([{ status: 200, body: job('failed', { finished_at: '2026-01-01T00:00:01.000Z', error: failed('parse_failed', false).error }) }]);
    const finished = await folio.jobs.wait(JOB_ID);
    expect(finished.status === 'failed' && finished.error.code).toBe('parse_failed');
  });

  it('wait stops when the signal aborts, with its reason, and polls no more', async () => {
    const { folio, requests } = folioWith([unfinished('queued', '30'), succeeded]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('enough')), 50);
    await expect(folio.jobs.wait(JOB_ID, { signal: controller.signal })).rejects.toThrow('enough');
    expect(requests).toHaveLength(1);
  });

  it('wait gives up after timeoutMs with FolioError timeout', async () => {
    const { folio } = folioWith([unfinished('processing', '30')]);
    const error = await folio.jobs.wait(JOB_ID, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolioError);
    expect(error).toMatchObject({ code: 'timeout', status: 0 });
  });

  it('a rate-limited poll is retried after its Retry-After', async () => {
    const { folio, requests } = folioWith([{ status: 429, body: failed('rate_limited', true), headers: { 'retry-after': '0' } }, succeeded]);
    expect((await folio.jobs.wait(JOB_ID)).status).toBe('succeeded');
    expect(requests).toHaveLength(2);
  });
});
