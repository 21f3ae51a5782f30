import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey, KeySeal } from '@folio/keys';
import { Receiver, selfSignedCertificate, type ReceivedCallback } from './support/receiver.ts';
import { snapshot } from './support/jobs.ts';
import { servePages } from './support/pages.ts';
import { Stack } from './support/stack.ts';

/**
 * The job-finished callback, end to end: real Kafka, Postgres and renderer, a real https receiver on loopback with a
 * self-signed certificate (trusted through NODE_EXTRA_CA_CERTS), allowlisted as the interface's public web.
 * Retries are 1, 2 and 3 s apart and a receiver has 2 s to answer, so the whole schedule fits in a test.
 */
const DELAYS_MS = [1000, 2000, 3000];

let stack: Stack;
let receiver: Receiver;
let key: string;
let pages: Awaited<ReturnType<typeof servePages>>;
/** What GET /v2/jobs/{id} returned at the moment each callback arrived, before the receiver answered. */
const readAtArrival = new Map<ReceivedCallback, { status: number; text: string }>();

beforeAll(async () => {
  const tls = selfSignedCertificate();
  stack = await Stack.start({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      // The API admits webhook_urls on loopback (as the public web) by address, and by the name `localhost`.
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
      FOLIO_WEBHOOK_RETRY_DELAYS: DELAYS_MS.map((ms) => ms / 1000).join(','),
      FOLIO_WEBHOOK_TIMEOUT: '2',
    },
  });
  key = await stack.createKey('paid');
  receiver = await Receiver.start(tls, async (callback) => {
    const jobId = callback.headers['x-folio-job-id'] as string;
    const read = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
    readAtArrival.set(callback, { status: read.status, text: read.text });
  });
  pages = await servePages({ '/article': { type: 'text/html', body: '<html><body><p>x</p></body></html>' } });
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  pages?.server.close();
  await stack?.stop();
});

async function startJob(json: Record<string, unknown>, withKey = key): Promise<string> {
  const response = await stack.request('POST', '/v2/convert', { key: withKey, json: { async: true, ...json } });
  expect(response.status, response.text).toBe(202);
  return response.body.job_id;
}

async function attemptsOf(jobId: string, count: number): Promise<Array<Record<string, any>>> {
  return stack.until(async () => {
    const rows = await stack.sql`select * from delivery_attempts where job_id = ${jobId} order by attempt, occurred_at`;
    return rows.length >= count ? [...rows] : null;
  }, 60_000, `${count} delivery attempts of ${jobId}`);
}

function expectSigned(callback: ReceivedCallback, jobId: string, withKey = key): void {
  expect(callback.headers['content-type']).toBe('application/json');
  expect(callback.headers['x-folio-job-id']).toBe(jobId);
  const expected = `sha256=${createHmac('sha256', withKey).update(callback.body).digest('hex')}`;
  expect(callback.headers['x-folio-signature']).toBe(expected);
  const signed = `${jobId}.${callback.headers['webhook-timestamp']}.${callback.body.toString('utf8')}`;
  expect(callback.headers['webhook-signature']).toBe(`v1,${createHmac('sha256', withKey).update(signed).digest('base64')}`);
  expect(callback.headers['webhook-id']).toBe(jobId);
}

describe('the job-finished callback', () => {
  it('is posted once, signed, with the bytes GET /v2/jobs/{id} returns, after the job is final and readable', async () => {
    const path = receiver.answer('/first-time', { status: 200 });
    const text = await startJob({ markdown: '# Hello\n\nA callback with é and ✓.', output: 'markdown', webhook_url: `${receiver.origin}${path}` });
    const pdf = await startJob({ markdown: '# A file\n\nLinks in the body are signed.', output: 'pdf', webhook_url: `${receiver.origin}${path}` });
    const received = await receiver.waitFor(path, 2);
    for (const jobId of [text, pdf]) {
      const callback = received.find((r) => r.headers['x-folio-job-id'] === jobId)!;
      expectSigned(callback, jobId);
      // Readable and final at status_url before the first attempt, with exactly the bytes that were posted.
      const atArrival = readAtArrival.get(callback)!;
      expect(atArrival.status).toBe(200);
      expect(Buffer.from(atArrival.text, 'utf8').equals(callback.body)).toBe(true);
      const now = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
      expect(Buffer.from(now.text, 'utf8').equals(callback.body)).toBe(true);
      expect(JSON.parse(callback.body.toString('utf8'))).toMatchObject({ status: 'succeeded', job_id: jobId });
    }
    expect(JSON.parse(received.find((r) => r.headers['x-folio-job-id'] === pdf)!.body.toString()).result.file_url).toMatch(/^http/);
    // Every header the OpenAPI document promises for the callback is sent, in the shape it states.
    const document = (await stack.request('GET', '/v2/openapi.json')).body;
    const promised = document.paths['/v2/convert'].post.callbacks.jobFinished['{$request.body#/webhook_url}'].post.parameters;
    expect(promised.length).toBeGreaterThanOrEqual(5);
    for (const header of promised) {
      const sent = received[0]!.headers[header.name.toLowerCase()] as string;
      expect(sent, header.name).toBeDefined();
      if (header.schema.pattern) expect(sent, header.name).toMatch(new RegExp(header.schema.pattern));
    }
    // One POST each, recorded as one delivered attempt, in the job's history too.
    await new Promise((r) => setTimeout(r, DELAYS_MS[0]! + 1000));
    expect(receiver.at(path)).toHaveLength(2);
    const [attempt] = await attemptsOf(text, 1);
    expect(attempt).toMatchObject({ attempt: 1, status_code: 200, outcome: 'delivered', error: null });
    const history = await stack.sql`select type from job_history where job_id = ${text} order by occurred_at`;
    expect(history.map((h) => h.type)).toContain('WebhookDeliveryAttempted');
  });

  it('retries 500, 500 then stops at the 200, after the configured gaps, sending the same bytes each time', async () => {
    const path = receiver.answer('/flaky', { status: 500 }, { status: 500 }, { status: 200 });
    const jobId = await startJob({ markdown: 'Retried until it is taken.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    const received = await receiver.waitFor(path, 3);
    const attempts = await attemptsOf(jobId, 3);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    for (const callback of received) expectSigned(callback, jobId);
    expect(received[1]!.body.equals(received[0]!.body) && received[2]!.body.equals(received[0]!.body)).toBe(true);
    const gaps = [received[1]!.at - received[0]!.at, received[2]!.at - received[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(DELAYS_MS[0]! - 50);
    expect(gaps[1]).toBeGreaterThanOrEqual(DELAYS_MS[1]! - 50);
    expect(gaps[0]).toBeLessThan(DELAYS_MS[0]! + 3000);
    expect(gaps[1]).toBeLessThan(DELAYS_MS[1]! + 3000);
    await new Promise((r) => setTimeout(r, DELAYS_MS[2]! + 1000));
    expect(receiver.at(path)).toHaveLength(3);
  });

  it('never follows a redirect, and a receiver that never answers 2xx gets 1 + 3 attempts, then no more', async () => {
    const target = receiver.answer('/redirect-target', { status: 200 });
    const path = receiver.answer('/redirecting', { status: 302, headers: { location: `${receiver.origin}${target}` } });
    const jobId = await startJob({ markdown: 'Never taken.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    await receiver.waitFor(path, 4);
    const attempts = await attemptsOf(jobId, 4);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 302, 'retrying'],
      [2, 302, 'retrying'],
      [3, 302, 'retrying'],
      [4, 302, 'gave_up'],
    ]);
    await new Promise((r) => setTimeout(r, DELAYS_MS[2]! + 1500));
    expect(receiver.at(path)).toHaveLength(4);
    expect(receiver.at(target)).toHaveLength(0);
    const [schedule] = await stack.sql`select state, attempts_made from delivery_schedule where job_id = ${jobId}`;
    expect(schedule).toMatchObject({ state: 'gave_up', attempts_made: 4 });
  });

  it('retries a receiver that does not answer within FOLIO_WEBHOOK_TIMEOUT', async () => {
    const path = receiver.answer('/slow', { status: 200, delayMs: 4000 }, { status: 200 });
    const jobId = await startJob({ markdown: 'Answered too late, then in time.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    await receiver.waitFor(path, 2);
    const attempts = await attemptsOf(jobId, 2);
    expect(attempts[0]).toMatchObject({ attempt: 1, status_code: null, outcome: 'retrying' });
    expect(attempts[0]!.error).toMatch(/no answer within 2 s/);
    expect(attempts[0]!.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(attempts[1]).toMatchObject({ attempt: 2, status_code: 200, outcome: 'delivered' });
  });

  it('delivers the callback of a failed job too, with its error', async () => {
    const path = receiver.answer('/failed', { status: 204 });
    const jobId = await startJob({ url: `${pages.origin}/missing`, output: 'text', webhook_url: `${receiver.origin}${path}` });
    const [callback] = await receiver.waitFor(path, 1);
    expectSigned(callback!, jobId);
    const body = JSON.parse(callback!.body.toString('utf8'));
    expect(body).toMatchObject({ status: 'failed', job_id: jobId, error: { code: expect.any(String), retryable: expect.any(Boolean) } });
    const now = await stack.request('GET', `/v2/jobs/${jobId}`, { key });
    expect(Buffer.from(now.text).equals(callback!.body)).toBe(true);
    expect((await attemptsOf(jobId, 1))[0]).toMatchObject({ status_code: 204, outcome: 'delivered' });
  });

  it('sends nothing for a job without a webhook_url', async () => {
    const quiet = await startJob({ markdown: 'No callback wanted.', output: 'text' });
    // A later job with a callback is delivered: the dispatcher has read past the quiet job's end.
    const path = receiver.answer('/after-quiet', { status: 200 });
    const later = await startJob({ markdown: 'After it.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    await stack.waitForJob(key, quiet);
    await receiver.waitFor(path, 1);
    expect(receiver.received.filter((r) => r.headers['x-folio-job-id'] === quiet)).toHaveLength(0);
    expect(await stack.sql`select 1 from delivery_schedule where job_id = ${quiet}`).toHaveLength(0);
    expect(await stack.sql`select 1 from delivery_attempts where job_id = ${quiet}`).toHaveLength(0);
    expect(later).not.toBe(quiet);
  });

  it('records why a callback it cannot sign was not sent, and goes on with the others', async () => {
    const orphan = await stack.createKey('paid');
    // The key's sealed copy made under a secret this deployment does not have (a rotated FOLIO_KEY_SECRET).
    const [row] = await stack.sql`select id from api_keys where key_hash = ${hashKey(orphan)}`;
    const foreign = new KeySeal('another deployment secret, thirty-two characters or more').seal(row!.id, orphan);
    await stack.sql`update api_keys set key_sealed = ${foreign} where id = ${row!.id}`;
    const path = receiver.answer('/unsignable', { status: 200 });
    const unsigned = await startJob({ markdown: 'Cannot be signed.', output: 'text', webhook_url: `${receiver.origin}${path}` }, orphan);
    const signedPath = receiver.answer('/signable', { status: 200 });
    await startJob({ markdown: 'Can be signed.', output: 'text', webhook_url: `${receiver.origin}${signedPath}` });
    await receiver.waitFor(signedPath, 1);
    const [attempt] = await attemptsOf(unsigned, 1);
    expect(attempt).toMatchObject({ attempt: 1, outcome: 'not_sent', status_code: null });
    expect(attempt!.error).toMatch(/another server secret/);
    expect(receiver.at(path)).toHaveLength(0);
    // The job itself is unaffected.
    expect((await stack.waitForJob(orphan, unsigned)).status).toBe('succeeded');
  });

  it('checks the resolved address at connect time: a name that resolves to loopback is refused by a dispatcher that does not allow it', async () => {
    const [dispatcher] = stack.running('dispatcher');
    await dispatcher!.stop();
    const strict = stack.spawn('dispatcher', { FOLIO_ALLOW_PRIVATE_HOSTS: '' });
    await stack.waitConsuming(strict);
    try {
      const path = receiver.answer('/by-name', { status: 200 });
      const port = new URL(receiver.origin).port;
      // Admitted by the API (which allows the name), refused by the dispatcher when `localhost` resolves to 127.0.0.1.
      const jobId = await startJob({ markdown: 'Rebinding.', output: 'text', webhook_url: `https://localhost:${port}${path}` });
      const attempts = await attemptsOf(jobId, 4);
      expect(attempts.map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'gave_up']);
      for (const a of attempts) expect(a.error).toMatch(/private or internal address/);
      expect(receiver.at(path)).toHaveLength(0);
    } finally {
      await strict.stop();
      await stack.waitConsuming(stack.spawn('dispatcher'));
    }
  });

  it('keeps the schedule when the dispatcher is killed between attempts: the remaining attempts are made late, not lost', async () => {
    const path = receiver.answer('/survives-kill', { status: 503 }, { status: 503 }, { status: 200 });
    const jobId = await startJob({ markdown: 'Outlives its dispatcher.', output: 'text', webhook_url: `${receiver.origin}${path}` });
    await receiver.waitFor(path, 1);
    await attemptsOf(jobId, 1);
    // Between attempts: the first is recorded in the schedule too (a kill before that would repeat it, as allowed).
    await stack.until(async () => {
      const [row] = await stack.sql`select attempts_made from delivery_schedule where job_id = ${jobId}`;
      return row?.attempts_made === 1;
    }, 30_000, 'the first attempt to be recorded in the schedule');
    const [dispatcher] = stack.running('dispatcher');
    await dispatcher!.kill();
    // Well past the first retry's time: with no dispatcher running, nothing is sent.
    await new Promise((r) => setTimeout(r, DELAYS_MS[0]! + 2000));
    expect(receiver.at(path)).toHaveLength(1);
    await stack.waitConsuming(stack.spawn('dispatcher'));
    const received = await receiver.waitFor(path, 3);
    const attempts = await attemptsOf(jobId, 3);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 503, 'retrying'],
      [2, 503, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    for (const callback of received) expectSigned(callback, jobId);
    await new Promise((r) => setTimeout(r, DELAYS_MS[2]! + 1000));
    expect(receiver.at(path)).toHaveLength(3);
  });

  it('is rebuilt by a replay of the log (delivery_attempts as they were), and a replay sends nothing again', async () => {
    const [projector] = stack.running('projector');
    await projector!.stop();
    const live = await snapshot(stack);
    expect(live.deliveries.length).toBeGreaterThanOrEqual(20);
    const sent = receiver.received.length;
    await promisify(execFile)(process.execPath, ['node_modules/.bin/folio', 'replay'], { env: { ...process.env, ...stack.env } });
    expect(await snapshot(stack)).toEqual(live);
    await stack.waitConsuming(stack.spawn('projector'));
    await new Promise((r) => setTimeout(r, 3000));
    expect(receiver.received.length).toBe(sent);
  });
});
