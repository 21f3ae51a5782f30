import type { components, paths } from './generated/schema.ts';

/** The interface's resources, named as in its description (all from the generated OpenAPI types). */
type Schemas = components['schemas'];
export type ArticleMeta = Schemas['ArticleMeta'];
export type ArticleDocument = Schemas['ArticleDocument'];
export type Usage = Schemas['Usage'];
export type ConvertFileResponse = Schemas['ConvertFileResponse'];
export type ConvertContentResponse = Schemas['ConvertContentResponse'];
export type ConvertJsonResponse = Schemas['ConvertJsonResponse'];
export type ConvertJobAccepted = Schemas['ConvertJobAccepted'];
export type ErrorObject = Schemas['ErrorObject'];
export type Job = Schemas['Job'];
/** Beyond the interface: a job's history, the usage ledger, a redelivery. */
export type JobHistoryEntry = Schemas['JobHistoryEntry'];
export type JobHistoryPage = Schemas['JobHistoryPage'];
export type JobPage = Schemas['JobPage'];
export type UsageLedgerEntry = Schemas['UsageLedgerEntry'];
export type UsageLedgerPage = Schemas['UsageLedgerPage'];
export type WebhookRedeliveryAccepted = Schemas['WebhookRedeliveryAccepted'];
/** The interface's error codes, exactly as the API documents them. */
export type ErrorCode = ErrorObject['code'];

/**
 * The API tolerates parameters it does not know (its schema allows additional properties, so the generated type has
 * an index signature). The SDK does not: without the index signature a misspelt parameter is a compile error.
 */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type ConvertBody = KnownKeys<paths['/v2/convert']['post']['requestBody']['content']['application/json']>;
export type Output = NonNullable<ConvertBody['output']>;

/** Parameters of a synchronous conversion: everything /v2/convert takes except what makes it a background job. */
export type ConvertParams = Omit<ConvertBody, 'async' | 'mode' | 'webhook_url'>;
/** Parameters of a background conversion: a webhook_url may be given; `async` is set by the SDK. */
export type ConvertAsyncParams = Omit<ConvertBody, 'async' | 'mode'>;

/** What a synchronous conversion answers, by output (pdf when none is given, as the API's default). */
export type ConvertResult<O extends Output = 'pdf'> = O extends 'pdf' | 'docx'
  ? ConvertFileResponse
  : O extends 'json'
    ? ConvertJsonResponse
    : ConvertContentResponse;

/** A job in a final state, told apart by status. */
export type SucceededJob = Job & { status: 'succeeded'; result: NonNullable<Job['result']>; finished_at: string };
export type FailedJob = Job & { status: 'failed'; error: ErrorObject; finished_at: string };
export type FinishedJob = SucceededJob | FailedJob;
