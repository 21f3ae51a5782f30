import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { defaultExecutablePath } from '@folio/pdf';
import { Stack } from './support/stack.ts';

/**
 * The /jobs page in a real headless Chromium: a key typed into it lists that key's jobs (and no one else's) with
 * status, output and timings, filters them, and shows the event history of the job clicked, with where in the log
 * each event sits. Hostile text from a job stays text.
 */
describe('the /jobs page', () => {
  let stack: Stack;
  let key: string;
  let site: Server;
  let browser: Browser;
  const jobs: Record<'text' | 'pdf' | 'failed' | 'other', string> = { text: '', pdf: '', failed: '', other: '' };

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    stack = Stack.shared('loopback-public');
    key = await stack.createKey('paid');
    jobs.text = await start(key, { markdown: '# Listed\n\nA job for the page.', output: 'text' });
    jobs.pdf = await start(key, { markdown: '# Printed', output: 'pdf' });
    jobs.failed = await start(key, { url: `${origin}/gone/%22%3E%3Cimg%20src=x%20onerror=%22window.pwned=1%22%3E`, output: 'markdown' });
    jobs.other = await start(await stack.createKey('paid'), { markdown: '# Not yours', output: 'html' });
    for (const id of [jobs.text, jobs.pdf, jobs.failed]) await stack.waitForJob(key, id);
    const executablePath = defaultExecutablePath();
    browser = await puppeteer.launch({
      executablePath,
      headless: executablePath.includes('headless-shell') ? 'shell' : true,
      args: typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : [],
    });
  });
  /** Starts a background job and answers its id. */
  async function start(withKey: string, json: Record<string, unknown>): Promise<string> {
    const response = await stack.request('POST', '/v2/convert', { key: withKey, json: { ...json, async: true } });
    expect(response.status, response.text).toBe(202);
    return response.body.job_id;
  }

  afterAll(async () => {
    await browser?.close();
    site?.close();
    await stack?.stop();
  });

  async function openWithKey(withKey: string): Promise<Page> {
    const page = await browser.newPage();
    const response = await page.goto(`${stack.url}/jobs`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.type('#key', withKey);
    await page.click('#key-form button[type=submit]');
    return page;
  }

  const rows = (page: Page) =>
    page.$$eval('#job-table tbody tr', (trs) => trs.map((tr) => ({ id: (tr as HTMLElement).dataset.jobId, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '') })));

  it('lists the key’s jobs, newest first, with status, output and timings, and only its own', async () => {
    const page = await openWithKey(key);
    await page.waitForFunction(() => document.querySelectorAll('#job-table tbody tr').length >= 3);
    const listed = await rows(page);
    expect(listed.map((r) => r.id)).toEqual([jobs.failed, jobs.pdf, jobs.text]);
    const [failed, pdf, text] = listed.map((r) => r.cells);
    expect(text).toEqual([expect.any(String), jobs.text, 'succeeded', 'text', expect.stringMatching(/^\d+\.\d+ s$/), expect.stringMatching(/words$/)]);
    expect(pdf!.slice(2, 4)).toEqual(['succeeded', 'pdf']);
    expect(pdf![5]).toMatch(/^\d+ bytes$/);
    expect(failed![2]).toBe('failed');
    expect(failed![5]).toMatch(/^fetch_failed: /);
    expect(await page.evaluate(() => ({ pwned: 'pwned' in window, images: document.images.length }))).toEqual({ pwned: false, images: 0 });

    await page.select('#filters select[name=status]', 'failed');
    await page.click('#filters button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('#job-table tbody tr').length === 1);
    expect((await rows(page)).map((r) => r.id)).toEqual([jobs.failed]);
    await page.close();
  });

  it('shows the history of the job clicked: each event, its attempt and renderer, and its topic, partition and offset', async () => {
    const page = await openWithKey(key);
    await page.waitForSelector(`#job-table tbody tr[data-job-id="${jobs.text}"]`);
    await page.click(`#job-table tbody tr[data-job-id="${jobs.text}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#events li').length >= 3);
    const events = await page.$$eval('#events li', (items) => items.map((li) => ({ kind: (li as HTMLElement).dataset.kind, text: li.textContent ?? '' })));
    expect(events.map((e) => e.kind)).toEqual(['queued', 'processing', 'succeeded']);
    expect(events[0]!.text).toContain('markdown → text');
    expect(events[1]!.text).toMatch(/attempt 1 · by \S+/);
    for (const event of events) expect(event.text).toMatch(/\S+ \/ partition \d+ @ offset \d+$/);
    expect(await page.$eval('#timeline-job', (node) => node.textContent)).toBe(jobs.text);
    await page.close();
  });

  it('says what is wrong with a key the API refuses', async () => {
    const page = await openWithKey('folio_not-a-key');
    await page.waitForSelector('#message:not([hidden])');
    expect(await page.$eval('#message', (node) => node.textContent)).toMatch(/^invalid_api_key: /);
    expect(await page.$eval('#jobs', (node) => (node as HTMLElement).hidden)).toBe(true);
    await page.close();
  });
});
