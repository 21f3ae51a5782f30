// S3Proxy (Maven Central jar) with the jclouds filesystem provider: a real S3 endpoint that checks SigV4 signatures
// (including presigned-URL expiry).
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { javaCommand, s3proxyJar } from './cache.ts';
import { ensureReady, NotRetryableError, spawnService, waitUntilReady, type RunningService } from './process.ts';

export interface S3Options {
  port: number;
  /** Where it listens (default 127.0.0.1). */
  address?: string;
  /** The network namespace to run in (a host of `npm run cluster`). */
  netns?: string;
  /** Holds `blobs/` (one directory per bucket), the properties file, the log and the pid file. */
  dataDir: string;
  /** Start from empty data: what an earlier run stored is deleted first (a test run starts as a fresh clone does). */
  fresh?: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  /** Created if missing. */
  bucket: string;
  /** Default us-east-1. */
  region?: string;
  heapMb?: number;
  readyTimeoutMs?: number;
}

export interface S3Connection {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export type S3Service = RunningService & S3Connection;

/** An S3 client configured for a non-AWS endpoint (path style, checksums only when required). */
export function s3ClientFor(c: Omit<S3Connection, 'bucket'>): S3Client {
  return new S3Client({
    endpoint: c.endpoint,
    region: c.region,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
}

export async function startS3(opts: S3Options): Promise<S3Service> {
  const dataDir = path.resolve(opts.dataDir);
  const blobs = path.join(dataDir, 'blobs');
  if (opts.fresh) await fsp.rm(blobs, { recursive: true, force: true });
  await fsp.mkdir(blobs, { recursive: true });
  const endpoint = `http://${opts.address ?? '127.0.0.1'}:${opts.port}`;
  const region = opts.region ?? 'us-east-1';
  const propsFile = path.join(dataDir, 's3proxy.properties');
  await fsp.writeFile(propsFile, [
    '# Written by infra/services/s3.ts on every start; edits are overwritten.',
    `s3proxy.endpoint=${endpoint}`,
    's3proxy.authorization=aws-v4',
    `s3proxy.identity=${opts.accessKeyId}`,
    `s3proxy.credential=${opts.secretAccessKey}`,
    'jclouds.provider=filesystem-nio2',
    `jclouds.filesystem.basedir=${blobs}`,
    `jclouds.identity=${opts.accessKeyId}`,
    `jclouds.credential=${opts.secretAccessKey}`,
    '',
  ].join('\n'), { mode: 0o600 });

  const heap = opts.heapMb ?? 256;
  const svc = await spawnService({
    name: 's3',
    command: javaCommand(),
    args: [
      `-Xmx${heap}m`, '-XX:+UseSerialGC', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true',
      // The first compiler tier only, as the registry (registry.ts) and a lone broker run: a local S3 for development
      // and tests serves too few requests for C2's compiling to pay for itself (a start 3.0 s of CPU against 4.7 s,
      // then 300 puts of 20 KB 2.4 s against 4.0 s, measured A/B).
      '-XX:TieredStopAtLevel=1',
      '-DLOG_LEVEL=info', `-Djava.io.tmpdir=${dataDir}`, '-Dfolio.service=s3',
      '-cp', s3proxyJar(), 'org.gaul.s3proxy.Main', '--properties', propsFile,
    ],
    dataDir,
    cmdlineMarker: propsFile,
    ports: [opts.port],
    stopTimeoutMs: 10_000,
    ...(opts.netns ? { netns: opts.netns } : {}),
  });
  const conn: S3Connection = {
    endpoint, bucket: opts.bucket, region, accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey,
  };
  const client = s3ClientFor(conn);
  try {
    await ensureReady(svc, () =>
      waitUntilReady(svc, () => ensureBucket(client, opts.bucket), {
        timeoutMs: opts.readyTimeoutMs ?? 60_000, intervalMs: 200,
      }));
  } finally {
    client.destroy();
  }
  return Object.assign(svc, conn);
}

/** HeadBucket, CreateBucket when it is missing; true once the bucket exists. */
async function ensureBucket(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    if (status === 400 || status === 403) throw notRetryable(err, `HeadBucket ${bucket}`);
    if (e.name !== 'NotFound' && status !== 404) throw err;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'BucketAlreadyOwnedByYou') return true; // concurrent creator
    if (e.$metadata?.httpStatusCode === 400 || e.$metadata?.httpStatusCode === 403) {
      throw notRetryable(err, `CreateBucket ${bucket}`);
    }
    throw err;
  }
  return true;
}

function notRetryable(err: unknown, what: string): NotRetryableError {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return new NotRetryableError(`${what}: ${e.$metadata?.httpStatusCode} ${e.name}: ${e.message}`);
}
