// Steady load for `npm run chaos`, run on the client host: requests at a fixed rate through the balancer, sync and
// async, every output, a share with callbacks, paid and free keys. It behaves as a careful client does: every
// request carries an Idempotency-Key, so what is retried is never converted or counted twice; a 429 waits its
// Retry-After; a 5xx or a lost connection is retried (and counted); a retryable 422 is tried again (render_failed
// under the same key, render_timeout as a new request).
// Each request's story is written as one JSON line when it ends.
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestBody, SCENARIOS, type Attempt, type LoadConfig, type RequestRecord } from './requests.ts';

const MAX_IN_FLIGHT = 400;
/** A request that has not ended after this long is given up on (its record says status 0). */
const GIVE_UP_MS = 120_000;

async function send(config: LoadConfig, key: string, body: Record<string, unknown>, requestId: string, idempotencyKey: string): Promise<Attempt & { retryAfter?: number; retryable?: boolean; jobId?: string }> {
  const t0 = Date.now();
  try {
    const res = await fetch(`${config.url}/v2/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey, 'x-request-id': requestId },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let parsed: { job_id?: string; error?: { code?: string; retryable?: boolean } } = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // an answer that is not JSON (the balancer's own 5xx page): its status says enough
    }
    const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
    return {
      status: res.status, at: Date.now(), ms: Date.now() - t0,
      ...(parsed.error?.code ? { code: parsed.error.code } : {}),
      ...(parsed.error?.retryable ? { retryable: true } : {}),
      ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
      ...(parsed.job_id ? { jobId: parsed.job_id } : {}),
    };
  } catch {
    return { status: 0, at: Date.now(), ms: Date.now() - t0 };
  }
}

async function oneRequest(config: LoadConfig, n: number): Promise<RequestRecord> {
  const scenario = SCENARIOS[n % SCENARIOS.length]!;
  // Keys in turn, a third of the requests on the two free keys.
  const key = config.keys[[0, 1, 0, 2, 1, 3][n % 6]! % config.keys.length]!;
  const id = `chaos-${n}-${randomUUID().slice(0, 8)}`;
  const body = requestBody(scenario, config.webhookUrl, id);
  const record: RequestRecord = {
    ...scenario, id, key: key.name, plan: key.plan, start: Date.now(), end: 0, status: 0, requestIds: [], attempts: [],
  };
  let tries = 0;
  let idempotencyKey = '';
  const newTry = () => {
    tries += 1;
    idempotencyKey = `${id}-${tries}`;
    record.requestIds.push(idempotencyKey);
  };
  newTry();
  while (Date.now() - record.start < GIVE_UP_MS) {
    const a = await send(config, key.key, body, idempotencyKey, idempotencyKey);
    record.attempts.push({ status: a.status, at: a.at, ms: a.ms, ...(a.code ? { code: a.code } : {}) });
    record.status = a.status;
    if (a.code) record.code = a.code;
    else delete record.code;
    if (a.jobId) record.jobId = a.jobId;
    if (a.status === 200 || a.status === 202) break;
    if (a.status === 429) {
      await sleep(Math.min(30, Math.max(1, a.retryAfter ?? 1)) * 1000);
      continue;
    }
    if (a.status === 0 || a.status >= 500) {
      await sleep(1000);
      continue;
    }
    if (a.retryable && tries < 3) {
      await sleep(1000);
      // render_failed says the service failed, and the same key is safe to send again: it finds the job if it was
      // queued after all. A job that timed out has failed for good: trying again is a new request.
      if (a.code === 'render_timeout') newTry();
      continue;
    }
    break; // a final answer: 402 quota_exceeded, or a failure that trying again would not change
  }
  record.end = Date.now();
  return record;
}

async function main(): Promise<void> {
  const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadConfig;
  const out = createWriteStream(config.outFile, { flags: 'w' });
  const inFlight = new Set<Promise<void>>();
  let skipped = 0;
  const startedAt = Date.now();
  const interval = 1000 / config.perSecond;
  // SIGTERM ends the arrivals (the faults are over); what is in flight still finishes and is written.
  let stopped = false;
  process.on('SIGTERM', () => {
    stopped = true;
  });
  for (let n = 0; !stopped && Date.now() - startedAt < config.durationMs; n += 1) {
    // A fixed schedule: a slow answer does not slow the arrivals (the load a fault meets stays the same).
    const due = startedAt + n * interval;
    if (due > Date.now()) await sleep(due - Date.now());
    if (inFlight.size >= MAX_IN_FLIGHT) {
      skipped += 1;
      continue;
    }
    const p: Promise<void> = oneRequest(config, n).then((r) => {
      out.write(`${JSON.stringify(r)}\n`);
    }).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  await new Promise<void>((r) => out.end(r));
  process.stdout.write(`load done: ${skipped} arrivals skipped (more than ${MAX_IN_FLIGHT} in flight)\n`);
}

await main();
