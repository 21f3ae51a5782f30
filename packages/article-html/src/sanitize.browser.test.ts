import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';
import { effectsOf, launchBrowser, startCanary, type Canary } from './test-support/browser.ts';
import { PAYLOADS } from './test-support/xss-payloads.ts';

/**
 * The XSS battery in a real Chromium with JavaScript enabled: the raw payloads demonstrably fire (dialogs, requests
 * to the canary standing in for evil.example, self-navigation); sanitised, none of them does anything.
 */
let browser: Browser;
let page: Page;
let canary: Canary;

const armed = (html: string) => html.replaceAll('https://evil.example/', `${canary.origin}/evil/`);
const evilHits = () => canary.hits.filter((hit) => hit.startsWith('/evil/'));

beforeAll(async () => {
  canary = await startCanary({
    '/evil/x.css': { type: 'text/css', body: 'body { background: url(/evil/from-css.png) }' },
  });
  browser = await launchBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await canary?.close();
});

describe('the XSS battery in Chromium', () => {
  it.each([
    'img onerror',
    'svg onload',
    'details ontoggle',
    'javascript: href',
    'svg xlink:href javascript:',
    'iframe srcdoc',
    'meta refresh',
    'base href',
    'style @import',
    'link stylesheet',
    'style attribute url()',
    'script with src',
  ])('control: the raw payload %s does fire', async (name) => {
    const html = armed(PAYLOADS.find(([n]) => n === name)![1]);
    canary.hits.length = 0;
    const effects = await effectsOf(page, canary, html);
    const fired = effects.dialogs.length + effects.navigations.length + evilHits().length;
    expect(fired, `${name}: ${JSON.stringify({ effects, hits: canary.hits })}`).toBeGreaterThan(0);
  });

  it.each(PAYLOADS)('sanitised, %s does nothing', async (_name, payload) => {
    const clean = sanitizeHtml(armed(payload), { baseUrl: 'https://site.example/articles/one.html' });
    canary.hits.length = 0;
    const effects = await effectsOf(page, canary, clean);
    expect({ ...effects, hits: evilHits() }).toEqual({ dialogs: [], navigations: [], hits: [] });
  });
});
