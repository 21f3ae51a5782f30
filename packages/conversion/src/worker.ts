import { parentPort, workerData } from 'node:worker_threads';
import { NetworkPolicy } from '@folio/network-policy';
import { PageFetcher } from '@folio/page-fetch';
import { prepare, type ConversionRequest } from './convert.ts';
import type { ChunkReply, WorkerReply } from './worker-pool.ts';

/** A conversion worker thread: runs `prepare` for the pool, a chunk of requests at a time, with a page fetcher of its own. */
const fetcher = new PageFetcher({ policy: new NetworkPolicy((workerData as { allowPrivateHosts: string[] }).allowPrivateHosts) });

parentPort!.on('message', async ({ id, requests }: { id: number; requests: ConversionRequest[] }) => {
  const replies: WorkerReply[] = [];
  // One after another: the work is the CPU's, and this thread has one. Every reply goes back in one message.
  for (const request of requests) {
    const started = performance.now();
    try {
      const result = await prepare(request, { fetcher });
      replies.push({ ok: true, result, ms: performance.now() - started });
    } catch (error) {
      const e = error as Error & { code?: string; retryable?: boolean };
      replies.push({ ok: false, error: { name: e.name, code: e.code, message: e.message, retryable: e.retryable }, ms: performance.now() - started });
    }
  }
  parentPort!.postMessage({ id, replies } satisfies ChunkReply);
});

// Loading jsdom, DOMPurify, docx and the rest takes seconds on a cold start: say when this thread can take work.
parentPort!.postMessage({ ready: true });
