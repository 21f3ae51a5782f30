import type { FastifyReply } from 'fastify';

/**
 * The 202 of a background job that was queued: where to poll it, in the body and as Location. POST /v2/convert with
 * async and a rerun answer alike.
 */
export function replyQueued(reply: FastifyReply, publicUrl: string, job: { jobId: string; expiresAt: string }) {
  const statusUrl = `${publicUrl}/v2/jobs/${job.jobId}`;
  return reply.code(202).header('location', statusUrl).send({ status: 'queued', job_id: job.jobId, status_url: statusUrl, expires_at: job.expiresAt });
}
