import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundleSdk } from '../scripts/bundle.ts';

/**
 * The size budget: what a web app ships for what it uses, minified and tree-shaken by a bundler (esbuild here).
 * The client with everything it needs (openapi-fetch included) stays under 16 kB; verifyWebhook alone, which a
 * receiver imports without the client, under 3 kB and without openapi-fetch.
 */
describe('the SDK’s size', () => {
  it('keeps Folio (convert, convertAsync, jobs) within 16 kB minified', async () => {
    const code = await bundleSdk("export { Folio } from './index.ts';", { minify: true });
    expect(code.length).toBeLessThan(16_000);
    expect(gzipSync(code).length).toBeLessThan(6_000);
  });

  it('keeps verifyWebhook alone within 3 kB, with nothing of the client', async () => {
    const code = await bundleSdk("export { verifyWebhook } from './index.ts';", { minify: true });
    expect(code.length).toBeLessThan(3_000);
    expect(code).not.toContain('Idempotency-Key');
  });
});
