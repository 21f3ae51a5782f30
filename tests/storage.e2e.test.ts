import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { join } from 'node:path';
import { LocalDiskStore, localSecret, S3Store } from '@folio/storage';
import { Stack } from './support/stack.ts';

describe('object storage: S3 (a real S3-compatible server that checks signatures)', () => {
  const infra = inject('infra');
  const store = (ttlSeconds = 172_800) =>
    new S3Store({
      endpoint: infra.S3_ENDPOINT!,
      bucket: infra.S3_BUCKET!,
      region: infra.S3_REGION!,
      accessKeyId: infra.AWS_ACCESS_KEY_ID,
      secretAccessKey: infra.AWS_SECRET_ACCESS_KEY,
      ttlSeconds,
    });

  it('stores and reads back objects, and presigns a link valid for 48 hours', async () => {
    const s3 = store();
    await s3.check();
    const key = `files/test-${Date.now()}.pdf`;
    const stored = await s3.put(key, Buffer.from('%PDF-1.7 test'), 'application/pdf');
    expect(stored).toEqual({ key, size: 13, content_type: 'application/pdf' });
    expect((await s3.get(key)).toString()).toBe('%PDF-1.7 test');

    const storedAt = new Date();
    const link = await s3.link(key, storedAt);
    expect(Date.parse(link.expires_at) - storedAt.getTime()).toBe(172_800_000);
    expect(link.url).toContain('X-Amz-Expires=172800');
    expect(await s3.link(key, storedAt)).toEqual(link); // the same file, the same link, every time
    const response = await fetch(link.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('%PDF-1.7 test');
  });

  it('refuses a tampered link and an expired one', async () => {
    const s3 = store(60);
    const key = `files/test-${Date.now()}-b.pdf`;
    await s3.put(key, 'secret bytes', 'application/pdf');
    const { url } = await s3.link(key, new Date());
    const tampered = url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(url);
    expect((await fetch(tampered)).status).toBe(403);
    const otherKey = url.replace(key, `${key}.other`);
    expect((await fetch(otherKey)).status).toBe(403);

    const expired = await s3.link(key, new Date(Date.now() - 120_000)); // signed two minutes ago for one minute
    expect((await fetch(expired.url)).status).toBe(403);
  });

  it('carries a large input and result of a job through S3 when S3 is configured', async () => {
    const stack = await Stack.start({
      env: {
        S3_ENDPOINT: infra.S3_ENDPOINT!,
        S3_BUCKET: infra.S3_BUCKET!,
        S3_REGION: infra.S3_REGION!,
        AWS_ACCESS_KEY_ID: infra.AWS_ACCESS_KEY_ID!,
        AWS_SECRET_ACCESS_KEY: infra.AWS_SECRET_ACCESS_KEY!,
        FOLIO_CLAIM_CHECK_BYTES: '1024',
      },
    });
    try {
      const key = await stack.createKey();
      const markdown = 'A paragraph of *text*.\n\n'.repeat(200);
      const response = await stack.request('POST', '/v2/convert', { key, json: { markdown, output: 'html' } });
      expect(response.status).toBe(200);
      expect(response.body.content.match(/<em>text<\/em>/g)).toHaveLength(200);
      const [row] = await stack.sql`select result from jobs`;
      expect(row!.result.content_ref.key).toMatch(/^results\//);
      expect((await store().get(row!.result.content_ref.key)).toString()).toBe(response.body.content);
      expect(await store().get(row!.result.content_ref.key.replace(/^results\/([^/]+)\/content$/, 'inputs/$1'))).toEqual(Buffer.from(markdown));
    } finally {
      await stack.stop();
    }
  });
});

describe('object storage: local disk, served by the API under signed, expiring links', () => {
  let stack: Stack;
  let local: LocalDiskStore;

  beforeAll(async () => {
    stack = await Stack.start({ without: ['renderer', 'projector'] });
    const dir = join(stack.env.FOLIO_STATE_DIR!, 'storage');
    local = new LocalDiskStore(dir, localSecret(dir, undefined), stack.url, 172_800);
  });
  afterAll(() => stack?.stop());

  it('serves a file under its link and refuses tampered, expired and internal links', async () => {
    await local.put('files/report.pdf', Buffer.from('%PDF-1.7 local'), 'application/pdf');
    const { url, expires_at } = await local.link('files/report.pdf', new Date());
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now() + 47 * 3600 * 1000);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    expect(await ok.text()).toBe('%PDF-1.7 local');

    const tampered = url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    const stretched = url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1000}`);
    expect((await fetch(stretched)).status).toBe(403);
    const old = await local.link('files/report.pdf', new Date(Date.now() - 172_900_000));
    expect((await fetch(old.url)).status).toBe(403);

    // Inputs and results are never served, even behind a genuine signature.
    await local.put('inputs/secret', 'private input', 'text/plain');
    const internal = await local.link('inputs/secret', new Date());
    expect([401, 404]).toContain((await fetch(internal.url)).status);
    const smuggled = `${stack.url}/files/../inputs/secret?${new URL(internal.url).search.slice(1)}`;
    expect((await fetch(smuggled)).status).not.toBe(200);
    expect(url).toMatch(new RegExp(`^${stack.url}/files/report\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  });
});
