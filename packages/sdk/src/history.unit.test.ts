import { describe, expect, it } from 'vitest';
import { Folio } from './client.ts';
import { failed, fakeApi, JOB_ID, type Reply } from './test-support/fake-api.ts';

const folioWith = (replies: Reply[]) => {
  const api = fakeApi(replies);
  return { folio: new Folio({ apiKey: 'k', baseUrl: 'https://folio.example', fetch: api.fetch, backoff: { baseDelayMs: 1 } }), requests: api.requests };
};

const entry = (kind: string, offset: number) => ({
  kind,
  event_id: `00000000-0000-4000-8000-00000000000${offset}`,
  event_type: 'JobProcessing',
  occurred_at: '2026-01-01T00:00:00.000Z',
  effective: true,
  topic: 'folio.jobs.lifecycle',
  partition: 0,
  offset,
});
const job = (n: number) => ({ status: 'queued', job_id: `01932f4e-7a1b-7c3d-8e9f-0a1b2c3d4e5${n}`, created_at: '2026-01-01T00:00:00.000Z' });

describe('listings', () => {
  it('jobs.events yields every entry of every page with for await, passing each next_cursor on', async () => {
    const { folio, requests } = folioWith([
      { status: 200, body: { job_id: JOB_ID, data: [entry('queued', 1), entry('processing', 2)], next_cursor: 'c1' } },
      { status: 200, body: { job_id: JOB_ID, data: [entry('succeeded', 3)], next_cursor: null } },
    ]);
    const kinds: string[] = [];
    for await (const e of folio.jobs.events(JOB_ID, { limit: 2 })) kinds.push(e.kind);
    expect(kinds).toEqual(['queued', 'processing', 'succeeded']);
    expect(requests.map((r) => r.url)).toEqual([
      `https://folio.example/v2/jobs/${JOB_ID}/events?limit=2`,
      `https://folio.example/v2/jobs/${JOB_ID}/events?limit=2&cursor=c1`,
    ]);
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer k');
  });

  it('page reads one page; a listing stops at the first empty last page', async () => {
    const { folio, requests } = folioWith([
      { status: 200, body: { data: [job(1)], next_cursor: 'next' } },
      { status: 200, body: { data: [], next_cursor: null } },
    ]);
    const listing = folio.jobs.list({ status: 'failed', output: 'pdf', created_after: '2026-01-01T00:00:00Z' });
    const first = await listing.page();
    expect(first).toEqual({ data: [job(1)], next_cursor: 'next' });
    expect(await listing.page(first.next_cursor!)).toEqual({ data: [], next_cursor: null });
    expect(new URL(requests[0]!.url).searchParams.toString()).toBe('status=failed&output=pdf&created_after=2026-01-01T00%3A00%3A00Z');
    expect(new URL(requests[1]!.url).searchParams.get('cursor')).toBe('next');
  });

  it('usage.list reads the ledger of a month, its summary on each page, and retries a read the API asked to repeat', async () => {
    const page = (ordinal: number, next: string | null) => ({
      period: '2026-11',
      usage: { used_this_period: 2, included: 100, plan: 'free' },
      data: [{ job_id: JOB_ID, counted_at: '2026-11-02T00:00:00.000Z', output: 'pdf', ordinal }],
      next_cursor: next,
    });
    const { folio, requests } = folioWith([{ status: 429, body: failed('rate_limited', true), headers: { 'retry-after': '0' } }, { status: 200, body: page(1, 'n') }, { status: 200, body: page(2, null) }]);
    const ordinals: number[] = [];
    for await (const document of folio.usage.list({ period: '2026-11' })) ordinals.push(document.ordinal);
    expect(ordinals).toEqual([1, 2]);
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['?period=2026-11', '?period=2026-11', '?period=2026-11&cursor=n']);
  });

  it('stops with the API’s error: job_not_found for another key’s job', async () => {
    const { folio } = folioWith([{ status: 404, body: failed('job_not_found', false) }]);
    const reading = async () => {
      for await (const _ of folio.jobs.events(JOB_ID)) void _;
    };
    await expect(reading()).rejects.toMatchObject({ code: 'job_not_found', status: 404 });
  });
});

describe('actions on a job', () => {
  const accepted = { status: 'queued', job_id: JOB_ID, status_url: `https://folio.example/v2/jobs/${JOB_ID}`, expires_at: '2026-01-03T00:00:00.000Z' };

  it('rerun POSTs /v2/jobs/{id}/rerun and answers the accepted job', async () => {
    const { folio, requests } = folioWith([{ status: 202, body: accepted }]);
    expect(await folio.jobs.rerun(JOB_ID)).toEqual(accepted);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.url).toBe(`https://folio.example/v2/jobs/${JOB_ID}/rerun`);
  });

  it('rerun is retried after a 429 (nothing started) but not after a lost answer, which may have started it', async () => {
    const limited = folioWith([{ status: 429, body: failed('rate_limited', true), headers: { 'retry-after': '0' } }, { status: 202, body: accepted }]);
    expect((await limited.folio.jobs.rerun(JOB_ID)).job_id).toBe(JOB_ID);
    expect(limited.requests).toHaveLength(2);
    const lost = folioWith([new TypeError('socket hang up'), { status: 202, body: accepted }]);
    await expect(lost.folio.jobs.rerun(JOB_ID)).rejects.toMatchObject({ code: 'connection_failed' });
    expect(lost.requests).toHaveLength(1);
  });

  it('redeliverWebhook POSTs /v2/jobs/{id}/webhook/redeliver; a job without a callback is invalid_parameters', async () => {
    const answer = { status: 'queued', job_id: JOB_ID, event_id: '00000000-0000-4000-8000-000000000001', events_url: `https://folio.example/v2/jobs/${JOB_ID}/events` };
    const { folio, requests } = folioWith([{ status: 202, body: answer }, { status: 422, body: failed('invalid_parameters', false) }]);
    expect(await folio.jobs.redeliverWebhook(JOB_ID)).toEqual(answer);
    expect(requests[0]!.url).toBe(`https://folio.example/v2/jobs/${JOB_ID}/webhook/redeliver`);
    await expect(folio.jobs.redeliverWebhook(JOB_ID)).rejects.toMatchObject({ code: 'invalid_parameters', status: 422 });
  });
});
