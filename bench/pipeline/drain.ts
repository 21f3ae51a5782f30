// The async drain that bench/pipeline's scripts measure: a stack warmed through the API, then JobQueued events
// written straight to the async lane and waited for. Written once for run.ts and renderers.ts.
import type { EventPublisher } from '@folio/event-log';
import type { Stack } from '../../tests/support/stack.ts';
import { asyncTextJobs } from './markdown.ts';

const WAIT_MS = 600_000;

/**
 * `jobs` async markdown→text calls through the API, `inFlight` at a time, until every one has succeeded and each of
 * the stack's `renderers` has finished some (the group is settled: no rebalance falls inside a drain after it).
 * Returns the API's intake, calls a second.
 */
export async function warmRenderers(stack: Stack, key: string, markdown: string, renderers: number, jobs: number, inFlight: number): Promise<number> {
  const t0 = performance.now();
  await submitAsyncTextJobs(stack, key, (i) => `${markdown}\n\nWarm ${i}.`, jobs, inFlight);
  const intakePerSecond = jobs / ((performance.now() - t0) / 1000);
  await stack.until(async () => {
    const [{ done, workers }] = (await stack.sql`
      select count(*)::int as done, count(distinct worker)::int as workers
      from job_history where type = 'JobSucceeded'`) as unknown as [{ done: number; workers: number }];
    return done >= jobs && workers >= renderers;
  }, WAIT_MS, 'the warm-up jobs');
  return intakePerSecond;
}

/** `jobs` async markdown→text calls through the API (the `i`-th converts `markdown(i)`), `inFlight` at a time. */
export async function submitAsyncTextJobs(stack: Stack, key: string, markdown: (i: number) => string, jobs: number, inFlight: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < jobs) {
        const i = next++;
        const r = await stack.request('POST', '/v2/convert', { key, json: { markdown: markdown(i), output: 'text', async: true } });
        if (r.status !== 202) throw new Error(`async request failed: ${r.status} ${r.text.slice(0, 200)}`);
      }
    }),
  );
}

/**
 * Writes `count` async markdown→text jobs of the key to the async lane and waits until all have succeeded. Returns
 * their seconds from the log's own timestamps, first JobSucceeded to last (rate: (count − 1) ÷ seconds).
 */
export async function drainJobs(stack: Stack, publisher: EventPublisher, keyId: string, markdown: string, count: number): Promise<number> {
  const events = asyncTextJobs(keyId, markdown, count);
  for (let i = 0; i < events.length; i += 100) await publisher.publish(...events.slice(i, i + 100));
  // Counted by the key's index over the drain's own rows (the load generator's polling is not the pipeline's cost).
  const since = events[0]!.occurred_at;
  await stack.until(async () => {
    const [{ done }] = (await stack.sql`
      select count(*)::int as done from jobs where key_id = ${keyId} and created_at >= ${since} and status = 'succeeded'`) as unknown as [{ done: number }];
    return done >= events.length;
  }, WAIT_MS, 'all jobs to finish');
  const [span] = await stack.sql<{ first: Date; last: Date }[]>`
    select min(occurred_at) as first, max(occurred_at) as last from job_history where type = 'JobSucceeded' and job_id in ${stack.sql(events.map((e) => e.job_id))}`;
  return (new Date(span!.last).getTime() - new Date(span!.first).getTime()) / 1000;
}
