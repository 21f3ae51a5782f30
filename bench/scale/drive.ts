// The client side of bench/scale, run on the cluster's client host: either sync markdown→html calls from a fixed
// number of callers for a while, or a batch of async html→pdf jobs submitted as fast as the callers can. Prints one
// JSON line with what it saw.
import { markdownToHtml } from '@folio/conversion';
import { setTimeout as sleep } from 'node:timers/promises';
import { sampleArticle } from '../pipeline/markdown.ts';

export interface DriveConfig {
  url: string;
  key: string;
  mode: 'sync-html' | 'async-pdf';
  callers: number;
  /** sync-html: measured time after `warmupMs`. */
  durationMs?: number;
  warmupMs?: number;
  /** async-pdf: how many jobs. */
  count?: number;
}

export interface DriveResult {
  ok: number;
  others: Record<string, number>;
  /** sync-html: latencies (ms) of the calls measured; async-pdf: the 202s' job ids. */
  latencies: number[];
  jobIds: string[];
  startedAt: number;
  endedAt: number;
}

const config = JSON.parse(process.argv[2]!) as DriveConfig;
const markdown = sampleArticle(1500);
const html = markdownToHtml(markdown);
const result: DriveResult = { ok: 0, others: {}, latencies: [], jobIds: [], startedAt: 0, endedAt: 0 };

async function call(body: object): Promise<{ status: number; jobId?: string }> {
  try {
    const res = await fetch(`${config.url}/v2/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const parsed = (await res.json().catch(() => ({}))) as { job_id?: string };
    return { status: res.status, ...(parsed.job_id ? { jobId: parsed.job_id } : {}) };
  } catch {
    return { status: 0 };
  }
}

const other = (status: number) => {
  result.others[String(status)] = (result.others[String(status)] ?? 0) + 1;
};

if (config.mode === 'sync-html') {
  const start = Date.now();
  const measureFrom = start + (config.warmupMs ?? 0);
  const end = measureFrom + (config.durationMs ?? 10_000);
  result.startedAt = measureFrom;
  await Promise.all(Array.from({ length: config.callers }, async () => {
    while (Date.now() < end) {
      const t0 = Date.now();
      const { status } = await call({ markdown, output: 'html' });
      if (t0 < measureFrom || Date.now() > end) continue;
      if (status === 200) {
        result.ok += 1;
        result.latencies.push(Date.now() - t0);
      } else {
        other(status);
        if (status === 429) await sleep(1000);
      }
    }
  }));
  result.endedAt = end;
} else {
  result.startedAt = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: config.callers }, async () => {
    while (next < (config.count ?? 100)) {
      next += 1;
      const { status, jobId } = await call({ html, output: 'pdf', async: true });
      if (status === 202 && jobId) {
        result.ok += 1;
        result.jobIds.push(jobId);
      } else {
        other(status);
      }
    }
  }));
  result.endedAt = Date.now();
}
process.stdout.write(`${JSON.stringify(result)}\n`);
