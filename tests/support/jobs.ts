import type { Stack } from './stack.ts';

/** Starts an async markdown job and returns its id. */
export async function startJob(stack: Stack, key: string, markdown: string, output = 'text'): Promise<string> {
  const response = await stack.request('POST', '/v2/convert', { key, json: { markdown, output, async: true } });
  if (response.status !== 202) throw new Error(`job not accepted: ${response.status} ${response.text}`);
  return response.body.job_id as string;
}

export interface HistoryRow {
  event_id: string;
  job_id: string;
  type: string;
  attempt: number | null;
  worker: string | null;
  effective: boolean;
}

export async function historyOf(stack: Stack, jobId: string): Promise<HistoryRow[]> {
  return stack.sql<HistoryRow[]>`
    select event_id, job_id, type, attempt, worker, effective from job_history where job_id = ${jobId}
    order by occurred_at, topic, partition, "offset"`;
}

/** The read models, in a stable order, for comparing a live projection with a rebuilt one. */
export async function snapshot(stack: Stack): Promise<{ jobs: unknown[]; history: unknown[]; deliveries: unknown[] }> {
  const jobs = await stack.sql`select * from jobs order by job_id`;
  const history = await stack.sql`select * from job_history order by event_id`;
  const deliveries = await stack.sql`select * from delivery_attempts order by event_id`;
  return { jobs: [...jobs], history: [...history], deliveries: [...deliveries] };
}

export function pidOfWorker(worker: string | null): number {
  const pid = Number(worker?.split('/').pop());
  if (!Number.isInteger(pid)) throw new Error(`no pid in worker ${worker}`);
  return pid;
}
