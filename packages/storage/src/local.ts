import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile, access } from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assertSafeKey, BlobNotFoundError, type BlobStore, type FileLink, type StoredObject } from './store.ts';

/**
 * Objects on local disk. Links point at the API's `/files/…` route (the key is the path) with an expiry and an HMAC-SHA256 signature
 * over both; the API checks it in constant time before serving a byte.
 */
export class LocalDiskStore implements BlobStore {
  readonly kind = 'local' as const;

  private readonly dir: string;
  private readonly secret: Buffer;
  private readonly publicUrl: string;
  private readonly ttlSeconds: number;
  constructor(
    dir: string,
    secret: Buffer,
    publicUrl: string,
    ttlSeconds: number,
  ) {
    this.dir = dir;
    this.secret = secret;
    this.publicUrl = publicUrl;
    this.ttlSeconds = ttlSeconds;
  }

  async put(key: string, body: Buffer | string, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    const path = join(this.dir, key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename: a reader never sees half a file, and a crash leaves no torn object behind.
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    await writeFile(temp, bytes);
    await rename(temp, path);
    return { key, size: bytes.length, content_type: contentType };
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    try {
      return await readFile(join(this.dir, key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertSafeKey(key);
    await Promise.all(keys.map((key) => rm(join(this.dir, key), { force: true, recursive: true })));
  }

  async link(key: string, storedAt: Date): Promise<FileLink> {
    const expires = Math.floor(storedAt.getTime() / 1000) + this.ttlSeconds;
    // Keys of served files start with `files/`, which is also the API's route: the link's path is the key itself.
    const url = `${this.publicUrl}/${key}?expires=${expires}&signature=${this.sign(key, expires)}`;
    return { url, expires_at: new Date(expires * 1000).toISOString() };
  }

  /** Whether a link's expiry and signature are genuine and still valid. */
  verify(key: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = Buffer.from(this.sign(key, Number(expires)), 'hex');
    const given = Buffer.from(signature, 'hex');
    return timingSafeEqual(expected, given) && Number(expires) * 1000 > now;
  }

  async check(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await access(this.dir);
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('hex');
  }
}

/**
 * The link-signing secret: FOLIO_FILE_SECRET when set (required when several API hosts serve files), otherwise one
 * generated once and kept beside the files, so links survive restarts.
 */
export function localSecret(dir: string, configured: string | undefined): Buffer {
  if (configured) return Buffer.from(configured);
  const path = join(dir, '.link-secret');
  if (existsSync(path)) return readFileSync(path);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path, randomBytes(32), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first
  }
  return readFileSync(path);
}
