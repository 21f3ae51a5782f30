/** A stored object's address and size (the claim check an event carries). */
export interface StoredObject {
  key: string;
  size: number;
  content_type: string;
}

export interface FileLink {
  url: string;
  expires_at: string;
}

/**
 * Object storage for large inputs, large results and pdf/docx files. Two implementations: local disk (files served
 * by the API under signed, expiring links) and S3 (presigned links).
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | string, contentType: string): Promise<StoredObject>;
  get(key: string): Promise<Buffer>;
  /**
   * A public link valid until `storedAt + ttl`. The same (key, storedAt) always gives the same link, so a job read
   * twice (and its callback) shows byte-for-byte the same result.
   */
  link(key: string, storedAt: Date): Promise<FileLink>;
  /** Deletes objects; keys that do not exist are skipped. */
  delete(keys: string[]): Promise<void>;
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`no stored object ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** Keys are made by Folio, never by users; this refuses anything that could step outside the store. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.includes('..') || key.includes('//')) {
    throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  }
}

/** A text carried inside an event, or by claim check: one of the two is set (invariant 6, docs/invariants.md). */
export interface ClaimChecked {
  text: string | null;
  ref: StoredObject | null;
}

/** `text` inline when it is at most `limitBytes` long (UTF-8), otherwise stored under `key` and carried by reference. */
export async function claimCheck(store: BlobStore, key: string, text: string, contentType: string, limitBytes: number): Promise<ClaimChecked> {
  if (Buffer.byteLength(text) <= limitBytes) return { text, ref: null };
  return { text: null, ref: await store.put(key, text, contentType) };
}

/** The text a claim-checked field stands for (null when it has neither). */
export async function redeem(store: BlobStore, { text, ref }: ClaimChecked): Promise<string | null> {
  if (text !== null) return text;
  return ref ? (await store.get(ref.key)).toString('utf8') : null;
}
