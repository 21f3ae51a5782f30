export { Folio, type CallOptions } from './client.ts';
export type { FolioOptions } from './transport.ts';
export { FolioError, type ClientErrorCode, type FolioErrorCode } from './errors.ts';
export type { WaitOptions } from './jobs.ts';
export { Paged, type Page, type ListJobsParams, type UsageListParams, type ReadOptions } from './history.ts';
export { verifyWebhook, type VerifyOptions, type WebhookHeaders, type WebhookVerification } from './webhooks.ts';
export type * from './types.ts';
export type { components, paths } from './generated/schema.ts';
