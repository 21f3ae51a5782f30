// What `npm run chaos` concludes, as a pure function of what it gathered: the load's request records, the read
// models' rows after the drain, the callbacks the receiver got, and when each fault was on.
import type { RequestRecord } from './requests.ts';

export interface JobRow {
  jobId: string;
  key: string;
  status: string;
  requestId: string | null;
  webhook: boolean;
}

export interface UsageRow {
  jobId: string;
  key: string;
}

export interface CallbackRow {
  /** The `webhook-id` header: the job's id. */
  jobId: string;
  /** The Standard Webhooks signature checked with the key that started the job. */
  valid: boolean;
}

export interface FaultWindow {
  name: string;
  start: number;
  end: number;
}

export interface Latency {
  n: number;
  p50: number;
  p99: number;
}

export interface FaultLatency {
  name: string;
  before: Latency;
  during: Latency;
  after: Latency;
}

export interface QuotaCheck {
  key: string;
  cap: number;
  succeeded: number;
  counted: number;
  exact: boolean;
}

export interface Verdict {
  requests: number;
  /** Final answers 200 (sync) and 202 (async). */
  accepted: number;
  answers: Record<string, number>;
  /** Answers that were not final (the client tried again): by status and code. */
  retriedAnswers: Record<string, number>;
  /** Every answer of 500 or more, retried ones included: the balancer's or an API's. */
  serverErrors: number;
  jobs: number;
  finished: number;
  /** Accepted, and no job in the read model. */
  lost: string[];
  /** Not succeeded or failed after the drain. */
  stuck: string[];
  /** Succeeded without a usage row. */
  uncounted: string[];
  /** A usage row for a job that did not succeed (or does not exist). Two rows for a job cannot exist: job_id is the key. */
  overcounted: string[];
  /** A sync 200 whose job the read model does not show succeeded. */
  answeredNotSucceeded: string[];
  /** Succeeded (and counted) though no caller was answered with it: a request converted twice, or behind a lost answer. */
  unseen: string[];
  quotas: QuotaCheck[];
  callbacks: { expected: number; delivered: number; missing: string[]; invalid: number; repeats: number };
  latency: FaultLatency[];
  ok: boolean;
}

const TERMINAL = new Set(['succeeded', 'failed']);

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function latencyOf(records: RequestRecord[], from: number, to: number): Latency {
  const ms = records.filter((r) => r.start >= from && r.start < to && r.status > 0).map((r) => r.end - r.start).sort((a, b) => a - b);
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** Latency of the requests that started in the `spanMs` before a fault, while it was on, and in the `spanMs` after. */
export function faultLatency(records: RequestRecord[], faults: FaultWindow[], spanMs = 20_000): FaultLatency[] {
  return faults.map((f) => ({
    name: f.name,
    before: latencyOf(records, f.start - spanMs, f.start),
    during: latencyOf(records, f.start, f.end),
    after: latencyOf(records, f.end, f.end + spanMs),
  }));
}

export function verdict(input: {
  records: RequestRecord[];
  jobs: JobRow[];
  usage: UsageRow[];
  callbacks: CallbackRow[];
  faults: FaultWindow[];
  freeCap: number;
}): Verdict {
  const { records, jobs, usage, callbacks } = input;
  const byId = new Map(jobs.map((j) => [j.jobId, j]));
  const byRequest = new Map(jobs.filter((j) => j.requestId).map((j) => [j.requestId!, j]));
  const answers: Record<string, number> = {};
  const retriedAnswers: Record<string, number> = {};
  const label = (a: { status: number; code?: string }) => `${a.status || 'no answer'}${a.code ? ` ${a.code}` : ''}`;
  let serverErrors = 0;
  for (const r of records) {
    answers[label(r)] = (answers[label(r)] ?? 0) + 1;
    for (const a of r.attempts.slice(0, -1)) retriedAnswers[label(a)] = (retriedAnswers[label(a)] ?? 0) + 1;
    serverErrors += r.attempts.filter((a) => a.status >= 500).length;
  }

  const accepted = records.filter((r) => r.status === 200 || r.status === 202);
  const lost: string[] = [];
  const answeredNotSucceeded: string[] = [];
  for (const r of accepted) {
    const job = r.jobId ? byId.get(r.jobId) : byRequest.get(r.requestIds.at(-1)!);
    if (!job) lost.push(r.jobId ?? r.id);
    else if (r.status === 200 && job.status !== 'succeeded') answeredNotSucceeded.push(job.jobId);
  }
  const stuck = jobs.filter((j) => !TERMINAL.has(j.status)).map((j) => j.jobId);
  const answered = new Set(accepted.flatMap((r) => [r.jobId, r.status === 200 ? r.requestIds.at(-1) : undefined]).filter(Boolean));
  const unseen = jobs.filter((j) => j.status === 'succeeded' && !answered.has(j.jobId) && !answered.has(j.requestId ?? '')).map((j) => j.jobId);
  const counted = new Set(usage.map((u) => u.jobId));
  const uncounted = jobs.filter((j) => j.status === 'succeeded' && !counted.has(j.jobId)).map((j) => j.jobId);
  const overcounted = usage.filter((u) => byId.get(u.jobId)?.status !== 'succeeded').map((u) => u.jobId);

  const freeKeys = [...new Set(records.filter((r) => r.plan === 'free').map((r) => r.key))].sort();
  const quotas = freeKeys.map((key) => {
    const succeeded = jobs.filter((j) => j.key === key && j.status === 'succeeded').length;
    const countedForKey = usage.filter((u) => u.key === key).length;
    return { key, cap: input.freeCap, succeeded, counted: countedForKey, exact: countedForKey === succeeded && countedForKey <= input.freeCap };
  });

  const expected = jobs.filter((j) => j.webhook && TERMINAL.has(j.status));
  const validFor = new Set(callbacks.filter((c) => c.valid).map((c) => c.jobId));
  const missing = expected.filter((j) => !validFor.has(j.jobId)).map((j) => j.jobId);
  const perJob = new Map<string, number>();
  for (const c of callbacks) perJob.set(c.jobId, (perJob.get(c.jobId) ?? 0) + 1);
  const repeats = [...perJob.values()].reduce((sum, n) => sum + (n - 1), 0);
  const invalid = callbacks.filter((c) => !c.valid).length;

  const ok = lost.length === 0 && stuck.length === 0 && uncounted.length === 0 && overcounted.length === 0
    && answeredNotSucceeded.length === 0 && unseen.length === 0 && quotas.every((q) => q.exact) && missing.length === 0 && invalid === 0
    && serverErrors === 0;
  return {
    requests: records.length,
    accepted: accepted.length,
    answers,
    retriedAnswers,
    serverErrors,
    jobs: jobs.length,
    finished: jobs.filter((j) => TERMINAL.has(j.status)).length,
    lost,
    stuck,
    uncounted,
    overcounted,
    answeredNotSucceeded,
    unseen,
    quotas,
    callbacks: { expected: expected.length, delivered: expected.length - missing.length, missing, invalid, repeats },
    latency: faultLatency(records, input.faults),
    ok,
  };
}

const ms = (l: Latency) => (l.n ? `${Math.round(l.p50)}/${Math.round(l.p99)}` : '–');

/** The one closing line. */
export function closingLine(v: Verdict): string {
  const quotas = v.quotas.map((q) => `${q.counted}/${q.cap}${q.exact ? '' : ' NOT EXACT'}`).join(', ');
  const faults = v.latency.map((f) => `${f.name} ${ms(f.before)}→${ms(f.during)}→${ms(f.after)}`).join('; ');
  const unrecorded = (v.answeredNotSucceeded.length ? `, ${v.answeredNotSucceeded.length} answered 200 but not recorded succeeded` : '')
    + (v.unseen.length ? `, ${v.unseen.length} succeeded unseen by any caller` : '');
  return `chaos: ${v.requests} requests, ${v.accepted} accepted; ${v.finished}/${v.jobs} jobs finished exactly once `
    + `(${v.lost.length} lost, ${v.stuck.length} stuck, ${v.overcounted.length} counted twice, ${v.uncounted.length} uncounted${unrecorded}; free quotas ${quotas}); `
    + `callbacks ${v.callbacks.delivered}/${v.callbacks.expected} delivered, ${v.callbacks.invalid} bad signatures, `
    + `${v.callbacks.repeats} repeats deduplicable by job id; ${v.serverErrors} 5xx; `
    + `p50/p99 ms before→during→after: ${faults} — ${v.ok ? 'PASS' : 'FAIL'}`;
}
