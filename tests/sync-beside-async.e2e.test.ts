import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Stack } from './support/stack.ts';
import { STORY_PAGE } from './support/pages.ts';

/**
 * Async jobs whose pages never answer hold what they take for the page fetch's whole budget (15 s): here, every render
 * slot async jobs may hold, and every conversion thread they may use. A synchronous caller beside them has a ceiling
 * shorter than that, and must be answered all the same: a renderer keeps a slot and a thread that only sync jobs take.
 */
describe('a sync call beside an async lane held up by pages that never answer', () => {
  let stack: Stack;
  let key: string;
  let site: Server;
  let origin: string;
  const stalled = new Set<Socket>();
  let stalling = true;

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url?.startsWith('/stall') && stalling) return void stalled.add(req.socket);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(STORY_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // A ceiling well under the stalled fetches' 15 s, with room for a machine busy with other test files.
    stack = await Stack.start({ env: { FOLIO_SYNC_TIMEOUT: '8', FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1', FOLIO_RENDER_CONCURRENCY: '4' } });
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    for (const socket of stalled) socket.destroy();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('converts sync jobs at once, one in the renderer and one that needs a conversion thread, while async jobs wait on their pages', async () => {
    const held: string[] = [];
    for (let i = 0; i < 4; i++) {
      const started = await stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/stall/${i}`, output: 'text', async: true } });
      expect(started.status).toBe(202);
      held.push(started.body.job_id);
    }
    // Both shared threads are waiting on a page (the other two async jobs hold slots while they wait for a thread).
    await stack.until(async () => stalled.size >= 2, 20_000, 'two stalled fetches');

    const [inline, fetched] = await Promise.all([
      stack.request('POST', '/v2/convert', { key, json: { markdown: '# Beside\n\nconverted at once', output: 'text' } }),
      stack.request('POST', '/v2/convert', { key, json: { url: `${origin}/story`, output: 'text' } }),
    ]);
    expect(inline.status).toBe(200);
    expect(inline.body.content).toContain('converted at once');
    expect(fetched.status).toBe(200);
    expect(fetched.body.content).toContain('sea wall');
    // They did not wait for the async jobs: those two still wait for a thread.
    expect(stalled.size).toBe(2);

    // The site comes back: the stalled fetches fail, the async jobs waiting for a thread get their page.
    stalling = false;
    for (const socket of stalled) socket.destroy();
    const ended = await Promise.all(held.map((id) => stack.waitForJob(key, id, 60_000)));
    expect(ended.filter((job) => job.status === 'failed').map((job) => job.error)).toEqual([
      expect.objectContaining({ code: 'fetch_failed', retryable: true }),
      expect.objectContaining({ code: 'fetch_failed', retryable: true }),
    ]);
    expect(ended.filter((job) => job.status === 'succeeded')).toHaveLength(2);
  });
});
