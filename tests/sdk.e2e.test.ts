import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { Folio, FolioError, verifyWebhook, type FolioOptions, type Job } from '@folio/sdk';
import { hashKey } from '@folio/keys';
import { Receiver, selfSignedCertificate } from './support/receiver.ts';
import { Stack } from './support/stack.ts';
import { lateInWindow, windowStart } from './support/rate-windows.ts';

/**
 * @folio/sdk against the running stack, as a client app uses it: every output, background jobs, a real signed
 * callback, the typed error of every code a test can provoke, and retries (a real 429, a page that fails once).
 * Budgets are the interface's own (scale 1), so the 429 is the one a user meets. Then the `folio` commands built on
 * it: convert, jobs get, jobs wait.
 */

const FOLIO_BIN = resolve(import.meta.dirname, '../apps/cli/bin/folio.mjs');

const ARTICLE = `<html><head><title>The river report</title></head><body><article><h1>The river report</h1>
${Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i + 1} of the report on the river, long enough to read as an article body, with its facts and figures.</p>`).join('\n')}
</article></body></html>`;
const MARKDOWN = '# Folio SDK\n\nA paragraph with **bold** words and a [link](https://example.com/).\n\n- one\n- two\n';

let stack: Stack;
let key: string;
let folio: Folio;
let receiver: Receiver;
let site: Server;
let origin: string;
/** Requests the site answered, by path. */
const hits = new Map<string, number>();
let rateLimited: Promise<{ refused: FolioError; statuses: number[]; job: Job; jobId: string }>;

const client = (apiKey: string, options: Partial<FolioOptions> = {}) => new Folio({ apiKey, baseUrl: stack.url, backoff: { baseDelayMs: 50, maxDelayMs: 200 }, ...options });

/** The FolioError a call fails with. */
async function failure(call: Promise<unknown>): Promise<FolioError> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(FolioError);
  return error as FolioError;
}

beforeAll(async () => {
  const tls = selfSignedCertificate();
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    if (path === '/' || path === '/story/river' || (path === '/story/flaky' && hit > 1)) {
      res.setHeader('content-type', 'text/html');
      return res.end(path === '/' ? '<html><body><a href="/story/river">River</a></body></html>' : ARTICLE);
    }
    if (path === '/story/empty') {
      res.setHeader('content-type', 'text/html');
      return res.end('<html><body></body></html>');
    }
    res.statusCode = path === '/story/flaky' ? 503 : 404;
    res.end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  stack = await Stack.start({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
      FOLIO_RATE_LIMIT_SCALE: '1',
      // A renderer that throws on this text (render_failed once its attempts are spent).
      FOLIO_FAULT_THROW_ON: 'FOLIO-POISON',
    },
  });
  key = await stack.createKey('paid');
  folio = client(key);
  receiver = await Receiver.start(tls);
  // The 429 takes a minute's window to line up: it runs beside the other tests, and the last one reads its outcome.
  rateLimited = meetRateLimit();
  rateLimited.catch(() => {});
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  site?.close();
  await stack?.stop();
});

/**
 * Spends a free key's poll budget (120 a minute) late in a window, so the API's Retry-After is short, then reads the
 * job through the SDK: once without retries (the typed 429), once with them (waits Retry-After and succeeds). The
 * windows are aligned on the clock, so on a slow machine the polls, the refused read and the retried read's first
 * answer can fall either side of a boundary; then the window proved nothing and the next one is tried.
 */
async function meetRateLimit() {
  const freeKey = await stack.createKey('free');
  const answers: { status: number; window: number }[] = [];
  const counting = client(freeKey, {
    fetch: async (request) => {
      const response = await fetch(request);
      answers.push({ status: response.status, window: windowStart(Date.now()) });
      return response;
    },
  });
  const { job_id: jobId } = await counting.convertAsync({ markdown: '# polled', output: 'text' });
  for (let attempt = 1; ; attempt++) {
    await lateInWindow(10_000);
    const window = windowStart(Date.now());
    for (let i = 0; i < 200; i++) {
      const answer = await fetch(`${stack.url}/v2/jobs/${jobId}`, { headers: { authorization: `Bearer ${freeKey}` } });
      await answer.arrayBuffer();
      if (answer.status === 429) break;
    }
    const refused = await client(freeKey, { maxRetries: 0 }).jobs.get(jobId).then(() => null, (e: unknown) => e);
    answers.length = 0;
    const job = await counting.jobs.get(jobId);
    const oneWindow = refused instanceof FolioError && answers[0]?.window === window;
    if (oneWindow || attempt === 3) return { refused: refused as FolioError, statuses: answers.map((a) => a.status), job, jobId };
  }
}

describe('@folio/sdk against the stack', () => {
  it('converts supplied Markdown to every output, each answer shaped as its output says', async () => {
    const pdf = await folio.convert({ markdown: MARKDOWN, output: 'pdf', title: 'Folio SDK' });
    expect(pdf).toMatchObject({ status: 'success', output: 'pdf', document: { title: 'Folio SDK' }, usage: { plan: 'paid' } });
    const pdfBytes = Buffer.from(await (await fetch(pdf.file_url)).arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfBytes.length).toBe(pdf.size_bytes);

    const docx = await folio.convert({ markdown: MARKDOWN, output: 'docx' });
    const docxBytes = Buffer.from(await (await fetch(docx.file_url)).arrayBuffer());
    expect(docxBytes.subarray(0, 2).toString()).toBe('PK');

    const markdown = await folio.convert({ markdown: MARKDOWN, output: 'markdown' });
    expect(markdown.content).toContain('**bold**');
    const html = await folio.convert({ markdown: MARKDOWN, output: 'html' });
    expect(html.content).toContain('<strong>bold</strong>');
    const text = await folio.convert({ markdown: MARKDOWN, output: 'text' });
    expect(text.content).toContain('A paragraph with bold words');
    expect(text.content).not.toContain('**');
    const json = await folio.convert({ markdown: MARKDOWN, output: 'json' });
    expect(json.document).toMatchObject({ content_html: expect.stringContaining('<li>'), content_markdown: expect.stringContaining('- one') });

    // No output: the API's default, a pdf.
    const byDefault = await folio.convert({ html: '<h1>Default</h1><p>Some words.</p>' });
    expect(byDefault.output).toBe('pdf');
    expect(byDefault.usage.used_this_period).toBe(7);
  });

  it('converts a web page, and answers the interface’s errors for pages it cannot convert as typed FolioErrors', async () => {
    const page = await folio.convert({ url: `${origin}/story/river`, output: 'text' });
    expect(page.content).toContain('Paragraph 12 of the report');
    expect(page.document.url).toBe(`${origin}/story/river`);

    const front = await failure(folio.convert({ url: `${origin}/`, output: 'text' }));
    expect(front).toMatchObject({ code: 'homepage_url', status: 422, retryable: false, requestId: expect.any(String) });
    const empty = await failure(folio.convert({ url: `${origin}/story/empty`, output: 'text' }));
    expect(empty).toMatchObject({ code: 'parse_failed', status: 422, retryable: false });
    const gone = await failure(client(key, { maxRetries: 1 }).convert({ url: `${origin}/story/gone`, output: 'text' }));
    expect(gone).toMatchObject({ code: 'fetch_failed', status: 422, retryable: true });
    // Retried as a new conversion (the failed one is final): the page was asked twice.
    expect(hits.get('/story/gone')).toBe(2);
  });

  it('retries a page that failed once, and the retry converts it', async () => {
    const flaky = await folio.convert({ url: `${origin}/story/flaky`, output: 'text' });
    expect(flaky.content).toContain('Paragraph 1 of the report');
    expect(hits.get('/story/flaky')).toBe(2);
  });

  it('starts a background job and waits for it, polling as the API says; a failed job is returned, not thrown', async () => {
    const accepted = await folio.convertAsync({ markdown: MARKDOWN, output: 'text' });
    expect(accepted).toMatchObject({ status: 'queued', job_id: expect.any(String), status_url: `${stack.url}/v2/jobs/${accepted.job_id}` });
    const seen: string[] = [];
    const done = await folio.jobs.wait(accepted.job_id, { timeoutMs: 60_000, onPoll: (job) => seen.push(job.status) });
    expect(done.status).toBe('succeeded');
    if (done.status !== 'succeeded') return;
    expect(done.result).toMatchObject({ output: 'text', content: expect.stringContaining('A paragraph with bold words') });
    expect(seen.at(-1)).toBe('succeeded');
    expect(await folio.jobs.get(accepted.job_id)).toEqual(done);

    const failing = await folio.convertAsync({ url: `${origin}/story/empty`, output: 'pdf' });
    const failed = await folio.jobs.wait(failing.job_id, { timeoutMs: 60_000 });
    expect(failed.status === 'failed' && failed.error).toMatchObject({ code: 'parse_failed', retryable: false });
  });

  it('verifies the real callback of a job, in both signature schemes, and refuses it altered or under another key', async () => {
    const path = receiver.answer('/folio-hook', { status: 200 });
    const accepted = await folio.convertAsync({ markdown: MARKDOWN, output: 'markdown', webhook_url: `${receiver.origin}${path}` });
    const [callback] = await receiver.waitFor(path, 1);
    const headers = callback!.headers as Record<string, string>;

    const verified = await verifyWebhook(callback!.body, headers, key);
    expect(verified).toMatchObject({ valid: true, scheme: 'standard', job: { job_id: accepted.job_id, status: 'succeeded' } });
    const { 'webhook-id': _id, 'webhook-timestamp': _ts, 'webhook-signature': _sig, ...interfaceOnly } = headers;
    expect(interfaceOnly['x-folio-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verifyWebhook(callback!.body, interfaceOnly, key)).toMatchObject({ valid: true, scheme: 'folio' });
    // As a fetch Request would hand them over: a Headers object and the body as text.
    expect(await verifyWebhook(callback!.body.toString('utf8'), new Headers(headers), key)).toMatchObject({ valid: true });

    const altered = Buffer.from(callback!.body.toString('utf8').replace('succeeded', 'failed'));
    expect(await verifyWebhook(altered, headers, key)).toEqual({ valid: false, reason: 'bad_signature' });
    expect(await verifyWebhook(altered, interfaceOnly, key)).toEqual({ valid: false, reason: 'bad_signature' });
    expect(await verifyWebhook(callback!.body, headers, await stack.createKey('paid'))).toEqual({ valid: false, reason: 'bad_signature' });
    // Replayed an hour later: the Standard Webhooks timestamp refuses it.
    expect(await verifyWebhook(callback!.body, headers, key, { now: Date.now() + 3_600_000 })).toEqual({ valid: false, reason: 'timestamp_out_of_range' });
  });

  it('refuses bad parameters and bad keys with the interface’s codes, typed', async () => {
    const missing = await failure(folio.convert({ output: 'text' }));
    expect(missing).toMatchObject({ code: 'invalid_parameters', status: 400, retryable: false });
    expect(missing.errors).toEqual(expect.arrayContaining([expect.objectContaining({ parameter: expect.any(String) })]));

    const tooLarge = await failure(folio.convert({ html: `<p>${'x'.repeat(2_100_000)}</p>`, output: 'text' }));
    expect(tooLarge).toMatchObject({ code: 'html_too_large', retryable: false });

    const unknown = await failure(client('folio_not-a-key-anyone-was-given').convert({ markdown: 'x', output: 'text' }));
    expect(unknown).toMatchObject({ code: 'invalid_api_key', status: 401, retryable: false });

    const notYours = await failure(client(await stack.createKey('free')).jobs.get((await folio.convertAsync({ markdown: 'mine', output: 'text' })).job_id));
    expect(notYours).toMatchObject({ code: 'job_not_found', status: 404 });
    expect(await failure(folio.jobs.get(uuidv7()))).toMatchObject({ code: 'job_not_found', status: 404 });

    const broken = await failure(client(key, { maxRetries: 0 }).convert({ markdown: 'FOLIO-POISON', output: 'text' }));
    expect(broken).toMatchObject({ code: 'render_failed', status: 422, retryable: true });
  });

  it('refuses a key at its limit, an inactive subscription and a spent free plan, typed', async () => {
    const limited = client(await stack.createKey('paid', 1));
    await limited.convert({ markdown: 'first', output: 'text' });
    expect(await failure(limited.convert({ markdown: 'second', output: 'text' }))).toMatchObject({ code: 'limit_exceeded', status: 401, retryable: false });

    const inactiveKey = await stack.createKey('paid');
    await stack.sql`update api_keys set active = false where key_hash = ${hashKey(inactiveKey)}`;
    const inactive = await stack.until(async () => {
      const error = await client(inactiveKey).convert({ markdown: 'x', output: 'text' }).then(() => null, (e: unknown) => e);
      return error instanceof FolioError && error.code === 'subscription_inactive' ? error : null;
    }, 10_000, 'the key cache to learn the key is inactive');
    expect(inactive).toMatchObject({ status: 401, retryable: false });

    const spentKey = await stack.createKey('free');
    const [row] = await stack.sql<{ id: string }[]>`select id from api_keys where key_hash = ${hashKey(spentKey)}`;
    const period = new Date().toISOString().slice(0, 7);
    await stack.sql`insert into usage (job_id, key_id, period, ordinal, counted_at)
      select gen_random_uuid(), ${row!.id}, ${period}, n, now() from generate_series(1, 100) as n`;
    const spent = await failure(client(spentKey).convert({ markdown: 'one more', output: 'text' }));
    expect(spent).toMatchObject({ code: 'quota_exceeded', status: 402, retryable: false, upgradeUrl: expect.stringMatching(/^https?:\/\//) });
  });

  describe('the folio command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    const run = promisify(execFile);
    /** Runs `folio` in `dir` as a user's shell would (stderr is a pipe, not a terminal); resolves even when it fails. */
    const folioCommand = (args: string[], env: Record<string, string> = { FOLIO_URL: stack.url, FOLIO_API_KEY: key }) =>
      run(process.execPath, [FOLIO_BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH!, ...env } }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    it('converts a Markdown file to a pdf named after it, showing the job’s progress', async () => {
      writeFileSync(join(dir, 'notes.md'), MARKDOWN);
      const { code, stdout, stderr } = await folioCommand(['convert', 'notes.md', '--title', 'Notes']);
      expect(code, stderr).toBe(0);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^job [0-9a-f-]{36}: (queued|processing) · \d+\.\d s$/m);
      expect(stderr).toMatch(/^job [0-9a-f-]{36}: succeeded · \d+\.\d s$/m);
      expect(stderr).toMatch(/^saved notes\.pdf \(\d+ bytes\)$/m);
      expect(readFileSync(join(dir, 'notes.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('converts a web page to Markdown on stdout, and to docx where --out says', async () => {
      const markdown = await folioCommand(['convert', `${origin}/story/river`, '--output', 'markdown']);
      expect(markdown.code, markdown.stderr).toBe(0);
      expect(markdown.stdout).toContain('Paragraph 12 of the report');
      const docx = await folioCommand(['convert', `${origin}/story/river`, '--output', 'docx', '--out', 'river.docx']);
      expect(docx.code, docx.stderr).toBe(0);
      expect(readFileSync(join(dir, 'river.docx')).subarray(0, 2).toString()).toBe('PK');
    });

    it('gets and waits for a job by id; a failed job exits 1 with its error', async () => {
      const accepted = await folio.convertAsync({ url: `${origin}/story/empty`, output: 'text' });
      const waited = await folioCommand(['jobs', 'wait', accepted.job_id]);
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain('the job failed: parse_failed');
      expect(JSON.parse(waited.stdout)).toMatchObject({ job_id: accepted.job_id, status: 'failed', error: { code: 'parse_failed' } });
      const got = await folioCommand(['jobs', 'get', accepted.job_id]);
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual(JSON.parse(waited.stdout));

      const unknown = await folioCommand(['jobs', 'get', uuidv7()]);
      expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^folio: job_not_found: .+ \(request \S+\)\n$/) });
    });

    it('says what is wrong with a command before calling the API', async () => {
      expect(await folioCommand(['convert', 'notes.md'], { FOLIO_URL: stack.url })).toMatchObject({ code: 2, stderr: expect.stringContaining('set FOLIO_API_KEY') });
      expect(await folioCommand(['convert', 'missing.md'])).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read missing.md: ENOENT') });
      expect(await folioCommand(['convert', 'notes.md', '--output', 'epub'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--output must be one of') });
      const refused = await folioCommand(['convert', 'notes.md'], { FOLIO_URL: stack.url, FOLIO_API_KEY: 'folio_not-a-key' });
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('folio: invalid_api_key:') });
      expect(existsSync(join(dir, 'missing.pdf'))).toBe(false);
    });
  });

  it('meets a real 429: typed rate_limited without retries; with them, waits Retry-After and gets the job', async () => {
    const { refused, statuses, job, jobId } = await rateLimited;
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429, retryable: true, requestId: expect.any(String) });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(statuses[0]).toBe(429);
    expect(statuses.at(-1)).toBe(200);
    expect(job.job_id).toBe(jobId);
  }, 240_000);
});
