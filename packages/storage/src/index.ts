import type { Config } from '@folio/config';
import { LocalDiskStore, localSecret } from './local.ts';
import { S3Store } from './s3.ts';
import type { BlobStore } from './store.ts';

export * from './store.ts';
export { LocalDiskStore, localSecret } from './local.ts';
export { S3Store } from './s3.ts';

/** The store the configuration names: S3 when S3_ENDPOINT/S3_BUCKET are set, local disk otherwise. */
export function createBlobStore(config: Config): BlobStore {
  const { storage } = config;
  if (storage.kind === 's3') return new S3Store({ ...storage, ttlSeconds: config.fileTtlSeconds });
  return new LocalDiskStore(storage.dir, localSecret(storage.dir, storage.secret), config.publicUrl, config.fileTtlSeconds);
}
