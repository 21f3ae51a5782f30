import { FolioError, type FolioErrorCode } from './errors.ts';
import { Jobs } from './jobs.ts';
import { UsageLedger } from './history.ts';
import { Transport, type FolioOptions } from './transport.ts';
import type { ConvertAsyncParams, ConvertJobAccepted, ConvertParams, ConvertResult, Output } from './types.ts';

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as Idempotency-Key. Default: a new random UUID per call, the same on each of its retries. */
  idempotencyKey?: string;
}

/**
 * The Folio API: `convert` (synchronous), `convertAsync` (a background job) and `jobs`. Every method retries what
 * is worth retrying (see FolioOptions) and fails with a FolioError.
 */
export class Folio {
  readonly jobs: Jobs;
  /** The usage ledger: `for await (const document of folio.usage.list({ period: '2026-11' }))`. */
  readonly usage: UsageLedger;
  private readonly transport: Transport;

  constructor(options: FolioOptions) {
    this.transport = new Transport(options);
    this.jobs = new Jobs(this.transport);
    this.usage = new UsageLedger(this.transport);
  }

  /**
   * Converts one input (url, html or markdown) to one output and answers with the result, typed by `output`:
   * pdf (the default) and docx give a file link, markdown/html/text the content inline, json the article in pieces.
   */
  async convert<O extends Output = 'pdf'>(params: ConvertParams & { output?: O }, options: CallOptions = {}): Promise<ConvertResult<O>> {
    const { data, response } = await this.post(params, options);
    if (response.status !== 200) throw unexpected(response, 'a conversion result');
    return data as ConvertResult<O>;
  }

  /** Starts a background conversion and answers with the accepted job; read it with `jobs.wait(job_id)`. */
  async convertAsync(params: ConvertAsyncParams, options: CallOptions = {}): Promise<ConvertJobAccepted> {
    const { data, response } = await this.post({ ...params, async: true }, options);
    if (response.status !== 202) throw unexpected(response, 'an accepted job');
    return data as ConvertJobAccepted;
  }

  /**
   * POST /v2/convert with one Idempotency-Key for the call: if an attempt's answer is lost and it is retried, the API
   * hands back the first attempt's job instead of converting and counting the document twice. A conversion that ran
   * and failed (fetch_failed, render_timeout, render_failed) is different: it is final and was not counted, and the
   * API would answer a retry under its key with that same failure, so the retry is a new conversion under a key of its
   * own, derived from the call's.
   */
  private post(body: ConvertAsyncParams & { async?: boolean }, options: CallOptions) {
    const base = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    let idempotencyKey = base;
    let conversions = 1;
    return this.transport.call((signal, previous) => {
      if (previous && RAN_AND_FAILED.has(previous.code)) idempotencyKey = `${base.slice(0, MAX_BASE_KEY)}.${++conversions}`;
      return this.transport.client.POST('/v2/convert', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal });
    }, options.signal);
  }
}

/** Retryable failures that come from a conversion that ran (a job that failed), not from its admission. */
const RAN_AND_FAILED = new Set<FolioErrorCode>(['fetch_failed', 'render_timeout', 'render_failed']);
/** The API takes keys of up to 255 characters; a retry's key adds a dot and a number. */
const MAX_BASE_KEY = 250;

function unexpected(response: Response, expected: string): FolioError {
  return new FolioError({
    code: 'unexpected_response',
    message: `expected ${expected}, the API answered ${response.status}`,
    status: response.status,
    retryable: false,
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}
