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
