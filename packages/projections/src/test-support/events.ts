import { DEFAULT_OPTIONS, jobQueued, type JobQueued } from '@folio/events';

/** A moment of a test's day, `s` seconds in. */
export const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, s));

/** An async markdown job's request, queued at second 1. */
export function queuedJob(jobId: string, requestId: string, output: JobQueued['output']): JobQueued {
  return jobQueued(
    {
      job_id: jobId,
      request_id: requestId,
      key_id: '11111111-1111-4111-8111-111111111111',
      lane: 'async',
      output,
      input: { kind: 'markdown', text: '# hi', ref: null },
      options: DEFAULT_OPTIONS,
      webhook_url: null,
      expires_at: at(0).toISOString(),
    },
    at(1),
  );
}
