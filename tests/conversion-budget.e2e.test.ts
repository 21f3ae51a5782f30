import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Stack } from './support/stack.ts';
import { STORY, STORY_PAGE } from './support/pages.ts';

/**
 * A page built to be slow: twenty thousand elements side by side, where Readability's rewriting over jsdom is
 * quadratic (10,000 of them took 5.7 s to extract, measured). With no bound it held its worker for minutes; with the
 * budget the job fails with render_timeout and the renderer goes on.
 */
const WIDE = `<html><head><title>Wide</title></head><body><article><h1>Wide</h1>${STORY}<div>${'<div>a line of its own</div>'.repeat(20_000)}</div></article></body></html>`;

describe('a conversion past its budget', () => {
  let stack: Stack;
  let key: string;
  let site: Server;
  let origin: string;

  beforeAll(async () => {
    site = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(req.url === '/wide' ? WIDE : STORY_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // One partition, so the job behind the slow one shares its partition; a budget the wide page cannot meet.
    stack = await Stack.start({ env: { FOLIO_CONVERSION_BUDGET_MS: '1500', FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1', FOLIO_TOPIC_PARTITIONS: '1' } });
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('fails with render_timeout, async and sync, and the renderer converts the jobs behind it', async () => {
    const started = await stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/wide`, output: 'text', async: true } });
    expect(started.status).toBe(202);
    const behind = await stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/article`, output: 'text', async: true } });
    expect(behind.status).toBe(202);

    const failed = await stack.waitForJob(key, started.body.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'render_timeout', message: 'conversion did not finish within 1.5 seconds', retryable: true });
    const done = await stack.waitForJob(key, behind.body.job_id);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'succeeded' });

    const sync = await stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/wide`, output: 'markdown' } });
    expect(sync.status).toBe(422);
    expect(sync.body).toEqual({ status: 'failed', error: { code: 'render_timeout', message: 'conversion did not finish within 1.5 seconds', retryable: true } });
    const after = await stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/article`, output: 'text' } });
    expect(after.status).toBe(200);
    expect(after.body.content).toContain('The harbour commission met on Tuesday');
  });
});
