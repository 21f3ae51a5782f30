import { parentPort, workerData } from 'node:worker_threads';
import { NetworkPolicy } from '@folio/network-policy';
import { PageFetcher } from '@folio/page-fetch';
import { prepare, type ConversionRequest } from './convert.ts';

/** A conversion worker thread: runs `prepare` for the pool, with a page fetcher of its own. */
const fetcher = new PageFetcher({ policy: new NetworkPolicy((workerData as { allowPrivateHosts: string[] }).allowPrivateHosts) });

parentPort!.on('message', async ({ id, request }: { id: number; request: ConversionRequest }) => {
  try {
    const result = await prepare(request, { fetcher });
    parentPort!.postMessage({ id, ok: true, result });
  } catch (error) {
    const e = error as Error & { code?: string; retryable?: boolean };
    parentPort!.postMessage({ id, ok: false, error: { name: e.name, code: e.code, message: e.message, retryable: e.retryable } });
  }
});

// Loading jsdom, DOMPurify, docx and the rest takes seconds on a cold start: say when this thread can take work.
parentPort!.postMessage({ ready: true });
