import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, BlobNotFoundError, type BlobStore, type FileLink, type StoredObject } from './store.ts';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  ttlSeconds: number;
}

/** Objects in an S3-compatible store; links are SigV4-presigned for the file lifetime (S3 allows up to 7 days). */
export class S3Store implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  private readonly options: S3Options;
  constructor(options: S3Options) {
    this.options = options;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Buffer | string, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
    return { key, size: bytes.length, content_type: contentType };
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return Buffer.from(await response.Body!.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertSafeKey(key);
    // One DeleteObject a key, eight at a time: the batch DeleteObjects needs a checksum header that S3-compatible
    // servers (S3Proxy among them) do not all implement. Deleting a key that does not exist succeeds.
    for (let i = 0; i < keys.length; i += 8) {
      await Promise.all(keys.slice(i, i + 8).map((Key) => this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key }))));
    }
  }

  async link(key: string, storedAt: Date): Promise<FileLink> {
    assertSafeKey(key);
    // Signed as of the moment the file was stored, so every reading of the job gives the very same link.
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: this.options.ttlSeconds,
      signingDate: storedAt,
    });
    return { url, expires_at: new Date(storedAt.getTime() + this.options.ttlSeconds * 1000).toISOString() };
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }
}
