import type { JobEventType } from './types.ts';

/**
 * The Avro schema of every event type in every version ever written. A version, once released, never changes:
 * a change of shape is a new version here plus an upcaster in `upcast.ts`. Each version is registered under its
 * own subject (`<topic>-<name>.v<version>`), so the registry's compatibility rule guards edits within a version.
 */
export interface AvroRecordSchema {
  type: 'record';
  name: string;
  namespace: string;
  doc?: string;
  fields: Array<{ name: string; type: unknown; default?: unknown; doc?: string }>;
}

const namespace = 'dev.folio.events';
const nullable = (type: unknown) => ({ type: ['null', type], default: null });

const envelope = (type: JobEventType, version: number) => [
  { name: 'type', type: 'string', default: type },
  { name: 'version', type: 'int', default: version },
  { name: 'event_id', type: 'string' },
  { name: 'job_id', type: 'string' },
  { name: 'occurred_at', type: 'string', doc: 'ISO 8601' },
];

const blobRef = {
  type: 'record',
  name: 'BlobRef',
  fields: [
    { name: 'key', type: 'string' },
    { name: 'size', type: 'long' },
    { name: 'content_type', type: 'string' },
  ],
};

const jobQueuedV1: AvroRecordSchema = {
  type: 'record',
  name: 'JobQueued',
  namespace,
  doc: 'v1 (first release): markdown input only, carried inline; no lanes, no options.',
  fields: [
    ...envelope('JobQueued', 1),
    { name: 'key_id', type: 'string' },
    { name: 'output', type: 'string' },
    { name: 'markdown', type: 'string' },
    { name: 'title', ...nullable('string') },
  ],
};

const jobQueuedV2: AvroRecordSchema = {
  type: 'record',
  name: 'JobQueued',
  namespace,
  fields: [
    ...envelope('JobQueued', 2),
    { name: 'request_id', type: 'string' },
    { name: 'key_id', type: 'string' },
    { name: 'lane', type: { type: 'enum', name: 'Lane', symbols: ['sync', 'async'] } },
    { name: 'output', type: 'string' },
    {
      name: 'input',
      type: {
        type: 'record',
        name: 'JobInput',
        fields: [
          { name: 'kind', type: { type: 'enum', name: 'InputKind', symbols: ['url', 'html', 'markdown'] } },
          { name: 'text', ...nullable('string') },
          { name: 'ref', ...nullable(blobRef) },
        ],
      },
    },
    {
      name: 'options',
      type: {
        type: 'record',
        name: 'ConversionOptions',
        fields: [
          { name: 'title', ...nullable('string') },
          { name: 'source_url', ...nullable('string') },
          { name: 'page_size', ...nullable('string') },
          { name: 'css_url', ...nullable('string') },
          { name: 'header_text', ...nullable('string') },
          { name: 'header_image_url', ...nullable('string') },
          { name: 'lang', ...nullable('string') },
          { name: 'dir', ...nullable('string') },
          { name: 'include_links', type: 'boolean', default: false },
        ],
      },
    },
    { name: 'webhook_url', ...nullable('string') },
    { name: 'expires_at', type: 'string' },
  ],
};

/** v3: `rerun_of`, the job a rerun repeats (null for every other job). */
const jobQueuedV3: AvroRecordSchema = {
  ...jobQueuedV2,
  fields: [...envelope('JobQueued', 3), ...jobQueuedV2.fields.slice(envelope('JobQueued', 2).length), { name: 'rerun_of', ...nullable('string') }],
};

const jobProcessingV1: AvroRecordSchema = {
  type: 'record',
  name: 'JobProcessing',
  namespace,
  fields: [...envelope('JobProcessing', 1), { name: 'attempt', type: 'int' }, { name: 'worker', type: 'string' }],
};

const articleMeta = {
  type: 'record',
  name: 'ArticleMeta',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'url', ...nullable('string') },
    { name: 'site', ...nullable('string') },
    { name: 'author', ...nullable('string') },
    { name: 'date', ...nullable('string') },
    { name: 'excerpt', ...nullable('string') },
    { name: 'image', ...nullable('string') },
    { name: 'word_count', type: 'int' },
  ],
};

const jobSucceededV1: AvroRecordSchema = {
  type: 'record',
  name: 'JobSucceeded',
  namespace,
  fields: [
    ...envelope('JobSucceeded', 1),
    { name: 'attempt', type: 'int' },
    { name: 'worker', type: 'string' },
    { name: 'duration_ms', type: 'int' },
    {
      name: 'result',
      type: {
        type: 'record',
        name: 'JobResult',
        fields: [
          { name: 'output', type: 'string' },
          { name: 'content', ...nullable('string') },
          { name: 'content_ref', ...nullable(blobRef) },
          {
            name: 'file',
            ...nullable({
              type: 'record',
              name: 'StoredFile',
              fields: [
                { name: 'key', type: 'string' },
                { name: 'size_bytes', type: 'long' },
                { name: 'content_type', type: 'string' },
                { name: 'stored_at', type: 'string' },
              ],
            }),
          },
          { name: 'document', type: articleMeta },
        ],
      },
    },
  ],
};

const jobFailedV1: AvroRecordSchema = {
  type: 'record',
  name: 'JobFailed',
  namespace,
  fields: [
    ...envelope('JobFailed', 1),
    { name: 'attempt', ...nullable('int') },
    { name: 'worker', type: 'string' },
    {
      name: 'error',
      type: {
        type: 'record',
        name: 'JobError',
        fields: [
          { name: 'code', type: 'string' },
          { name: 'message', type: 'string' },
          { name: 'retryable', type: 'boolean' },
        ],
      },
    },
  ],
};

const webhookDeliveryAttemptedV1: AvroRecordSchema = {
  type: 'record',
  name: 'WebhookDeliveryAttempted',
  namespace,
  fields: [
    ...envelope('WebhookDeliveryAttempted', 1),
    { name: 'attempt', type: 'int' },
    { name: 'worker', type: 'string' },
    { name: 'url', type: 'string' },
    { name: 'status_code', ...nullable('int') },
    { name: 'error', ...nullable('string') },
    { name: 'duration_ms', type: 'int' },
    {
      name: 'outcome',
      type: { type: 'enum', name: 'DeliveryOutcome', symbols: ['delivered', 'retrying', 'gave_up', 'not_sent'] },
    },
    { name: 'next_attempt_at', ...nullable('string') },
  ],
};

const webhookRedeliveryRequestedV1: AvroRecordSchema = {
  type: 'record',
  name: 'WebhookRedeliveryRequested',
  namespace,
  fields: [...envelope('WebhookRedeliveryRequested', 1), { name: 'request_id', type: 'string' }, { name: 'worker', type: 'string' }],
};

/** Every schema, by event type and version. */
export const SCHEMAS: Record<JobEventType, Record<number, AvroRecordSchema>> = {
  JobQueued: { 1: jobQueuedV1, 2: jobQueuedV2, 3: jobQueuedV3 },
  JobProcessing: { 1: jobProcessingV1 },
  JobSucceeded: { 1: jobSucceededV1 },
  JobFailed: { 1: jobFailedV1 },
  WebhookDeliveryAttempted: { 1: webhookDeliveryAttemptedV1 },
  WebhookRedeliveryRequested: { 1: webhookRedeliveryRequestedV1 },
};

export function schemaOf(type: JobEventType, version: number): AvroRecordSchema {
  const schema = SCHEMAS[type][version];
  if (!schema) throw new Error(`no schema for ${type} v${version}`);
  return schema;
}
