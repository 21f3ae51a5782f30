import { parentPort, workerData } from 'node:worker_threads';
import { NetworkPolicy } from '@folio/network-policy';
import { PageFetcher } from '@folio/page-fetch';
import { prepare, type ConversionRequest } from './convert.ts';
import { warmUp } from './warm-up.ts';
import { epochMs, type ChunkReply, type Timeline, type WorkerReply } from './worker-pool.ts';

/** A conversion worker thread: runs `prepare` for the pool, a chunk of requests at a time, with a page fetcher of its own. */
const fetcher = new PageFetcher({ policy: new NetworkPolicy((workerData as { allowPrivateHosts: string[] }).allowPrivateHosts) });

parentPort!.on('message', async ({ id, requests }: { id: number; requests: ConversionRequest[] }) => {
  const replies: WorkerReply[] = [];
  // One after another: the work is the CPU's, and this thread has one. Every reply goes back in one message.
  for (const request of requests) {
    const started = performance.now();
    const timeline: Timeline = { start: epochMs(), fetched: null, end: 0 };
    // The page's fetch timed apart from the rest, for the job's trace.
    const timed = {
      fetch: (url: string) => fetcher.fetch(url).finally(() => (timeline.fetched = epochMs())),
      fetchImage: (url: string, maxBytes?: number) => fetcher.fetchImage(url, maxBytes),
    };
    try {
      const result = await prepare(request, { fetcher: timed });
      replies.push({ ok: true, result, ms: performance.now() - started, timeline: { ...timeline, end: epochMs() } });
    } catch (error) {
      const e = error as Error & { code?: string; retryable?: boolean };
      const failed = { name: e.name, code: e.code, message: e.message, retryable: e.retryable };
      replies.push({ ok: false, error: failed, ms: performance.now() - started, timeline: { ...timeline, end: epochMs() } });
    }
  }
  parentPort!.postMessage({ id, replies } satisfies ChunkReply);
});

// Loading jsdom, DOMPurify, docx and the rest takes seconds on a cold start, and a first page as much as ten more
// (`warmUp`): say when this thread can take work.
await warmUp();
parentPort!.postMessage({ ready: true });
