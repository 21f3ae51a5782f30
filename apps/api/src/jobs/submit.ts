import type { Sql } from '@folio/db';
import { jobQueued, newJobId, type JobInput, type JobQueued } from '@folio/events';
import type { EventPublisher } from '@folio/event-log';
import { claimCheck, type BlobStore } from '@folio/storage';
import type { ConvertRequest } from '../routes/convert-params.ts';

export interface SubmitContext {
  sql: Sql;
  publisher: EventPublisher;
  store: BlobStore;
  claimCheckBytes: number;
  jobTtlSeconds: number;
}

/**
 * Turns an accepted request into a JobQueued event. An input too large to travel inside an event is stored first
 * and the event carries its claim check (invariant 6).
 */
export async function queueJob(
  ctx: SubmitContext,
  request: ConvertRequest,
  meta: { keyId: string; requestId: string; jobId?: string },
): Promise<JobQueued> {
  const jobId = meta.jobId ?? newJobId();
  const now = new Date();
  const carried = await claimCheck(ctx.store, `inputs/${jobId}`, request.input.text, contentTypeOf(request.input.kind), ctx.claimCheckBytes);
  const input: JobInput = { kind: request.input.kind, ...carried };
  const event = jobQueued(
    {
      job_id: jobId,
      request_id: meta.requestId,
      key_id: meta.keyId,
      lane: request.async ? 'async' : 'sync',
      output: request.output,
      input,
      options: request.options,
      webhook_url: request.webhookUrl,
      expires_at: new Date(now.getTime() + ctx.jobTtlSeconds * 1000).toISOString(),
    },
    now,
  );
  await ctx.publisher.publish(event);
  return event;
}

function contentTypeOf(kind: JobInput['kind']): string {
  return kind === 'html' ? 'text/html; charset=utf-8' : kind === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/plain';
}
