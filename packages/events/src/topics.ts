import type { JobEvent } from './types.ts';

/**
 * Where each event goes. Every event of a job is keyed by its job id, so a job's events keep their order within a
 * partition. Requests travel on two lanes so that an async backlog never starves synchronous callers; everything that
 * happens to a job afterwards is on the lifecycle topic, which is the audit log of every job.
 */
export interface Topics {
  queuedSync: string;
  queuedAsync: string;
  lifecycle: string;
}

export function topicNames(prefix = ''): Topics {
  return {
    queuedSync: `${prefix}folio.jobs.queued.sync`,
    queuedAsync: `${prefix}folio.jobs.queued.async`,
    lifecycle: `${prefix}folio.jobs.lifecycle`,
  };
}

export function allTopics(topics: Topics): string[] {
  return [topics.queuedSync, topics.queuedAsync, topics.lifecycle];
}

export function topicOf(event: JobEvent, topics: Topics): string {
  if (event.type === 'JobQueued') return event.lane === 'sync' ? topics.queuedSync : topics.queuedAsync;
  return topics.lifecycle;
}

export function keyOf(event: JobEvent): string {
  return event.job_id;
}

/**
 * Topic settings made by the project (never by auto-create). The log is the source of truth and the audit history:
 * kept by time only (`retentionMs`, -1 = forever, FOLIO_LOG_RETENTION_DAYS), never by size, and deleted, never
 * compacted — every event of a job has the job's id as its key, so compaction would keep only each job's last
 * event. docs/retention.md says why.
 */
export function topicConfig(retentionMs = -1): Record<string, string> {
  return {
    'retention.ms': String(retentionMs),
    'retention.bytes': '-1',
    'cleanup.policy': 'delete',
    'max.message.bytes': String(1024 * 1024),
  };
}
