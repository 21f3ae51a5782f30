import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@folio/events';
import { ConversionPool } from './worker-pool.ts';

describe('the conversion worker pool', () => {
  const pool = new ConversionPool({ size: 2, allowPrivateHosts: [] });
  afterAll(() => pool.close());

  it('answers every one of many concurrent jobs, each with its own result', async () => {
    await pool.ready();
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        pool.prepare({ input: { kind: 'markdown', text: `# Job ${i}\n\nbody ${i}` }, output: 'text', options: DEFAULT_OPTIONS }),
      ),
    );
    results.forEach((result, i) => {
      expect(result.kind).toBe('content');
      if (result.kind === 'content') expect(result.content).toBe(`Job ${i}\n\nbody ${i}`);
    });
  });

  it('carries conversion errors back with their code, and files as bytes', async () => {
    await expect(pool.prepare({ input: { kind: 'url', text: 'https://example.com/' }, output: 'text', options: DEFAULT_OPTIONS })).rejects.toMatchObject({
      name: 'ConversionError',
      code: 'homepage_url',
    });
    const docx = await pool.prepare({ input: { kind: 'markdown', text: '# A doc' }, output: 'docx', options: DEFAULT_OPTIONS });
    expect(docx.kind).toBe('file');
    if (docx.kind === 'file') expect(Buffer.isBuffer(docx.bytes) && docx.bytes.subarray(0, 2).toString()).toBe('PK');
  });
});

// Supplied markup that keeps a worker busy for hundreds of milliseconds (sanitising), and a quick job.
const slow = { input: { kind: 'html' as const, text: `<div>${'<span onclick="x">w</span><b>word</b> '.repeat(20_000)}</div>` }, output: 'text' as const, options: DEFAULT_OPTIONS };
const quick = (i: number) => ({ input: { kind: 'markdown' as const, text: `# Quick ${i}` }, output: 'text' as const, options: DEFAULT_OPTIONS });

describe('the conversion budget', () => {
  const pool = new ConversionPool({ size: 1, allowPrivateHosts: [], budgetMs: 150 });
  afterAll(() => pool.close());

  it('fails a conversion past its budget with render_timeout, and the replaced worker converts the next one', async () => {
    await pool.ready();
    const [outcome] = await pool.prepareAll([slow]);
    expect(outcome).toMatchObject({ ok: false, error: { name: 'ConversionError', code: 'render_timeout', message: 'conversion did not finish within 0.15 seconds' } });
    await expect(pool.prepare(quick(1))).resolves.toMatchObject({ kind: 'content', content: 'Quick 1' });
  });

  it('fails only the overrunning request of a chunk: the quick ones beside it are converted', async () => {
    const outcomes = await pool.prepareAll([quick(1), slow, quick(2)]);
    expect(outcomes.map((o) => (o.ok ? o.result.kind === 'content' && o.result.content : (o.error as { code: string }).code))).toEqual(['Quick 1', 'render_timeout', 'Quick 2']);
  });

  it('leaves a conversion within its budget alone', async () => {
    const roomy = new ConversionPool({ size: 1, allowPrivateHosts: [], budgetMs: 60_000 });
    try {
      await roomy.ready();
      const [outcome] = await roomy.prepareAll([slow]);
      expect(outcome!.ok).toBe(true);
    } finally {
      await roomy.close();
    }
  });
});

describe('an urgent request while the worker kept for it starts', () => {
  const pool = new ConversionPool({ size: 1, urgentWorkers: 1, allowPrivateHosts: [] });
  afterAll(() => pool.close());

  it('has not started the kept worker while a shared one is free', async () => {
    await pool.ready();
    expect(pool.size).toBe(1);
  });

  it('is converted by the first worker free, not held for the new one to load its modules', async () => {
    await pool.ready();
    const order: string[] = [];
    const busy = pool.prepareAll([quick(1)]);
    expect(pool.size).toBe(2); // the quick job took the only shared worker, so the kept one is starting already
    const urgent = pool.prepareAll([quick(2)], { urgent: true }).then((outcome) => {
      order.push('urgent converted');
      return outcome;
    });
    const loaded = pool.ready().then(() => order.push('kept worker loaded'));
    const [, converted] = await Promise.all([busy, urgent, loaded]);
    expect(converted).toMatchObject([{ ok: true, result: { content: 'Quick 2' } }]);
    // The shared worker ended its quick job long before a new thread could load jsdom and the rest.
    expect(order).toEqual(['urgent converted', 'kept worker loaded']);
  });
});

describe('the worker kept for urgent requests', () => {
  const pool = new ConversionPool({ size: 1, urgentWorkers: 1, allowPrivateHosts: [] });
  afterAll(() => pool.close());

  it('is started the first time the shared workers are all taken, before an urgent request needs it, and kept', async () => {
    await pool.ready();
    expect(pool.size).toBe(1);
    const [, urgent] = await Promise.all([pool.prepareAll([slow]), pool.prepareAll([quick(3)], { urgent: true })]);
    expect(urgent).toMatchObject([{ ok: true, result: { content: 'Quick 3' } }]);
    expect(pool.size).toBe(2);
    await Promise.all([pool.prepareAll([slow]), pool.prepareAll([quick(4)], { urgent: true }), pool.prepareAll([quick(5)], { urgent: true })]);
    expect(pool.size).toBe(2); // one at most
  });

  it('converts an urgent request beside a busy shared worker; a request that is not urgent waits for that one', async () => {
    const order: string[] = [];
    const busy = pool.prepareAll([slow]).then(() => order.push('slow'));
    const other = pool.prepareAll([quick(1)]).then(() => order.push('other'));
    const urgent = pool.prepareAll([quick(2)], { urgent: true }).then(() => order.push('urgent'));
    await Promise.all([busy, other, urgent]);
    expect(order).toEqual(['urgent', 'slow', 'other']);
  });
});
