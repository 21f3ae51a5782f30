import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The headers that let a receiver trust a callback. Two schemes, both keyed with the API key that started the job:
 * - the interface's own: `X-Folio-Signature: sha256=<hex HMAC-SHA256 of the raw body>` and `X-Folio-Job-Id`;
 * - Standard Webhooks (standardwebhooks.com): `webhook-id` (the job id, the same on every retry, for deduplication),
 *   `webhook-timestamp` (this attempt's time, seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 *   "<id>.<timestamp>.<body>">`, so a receiver can refuse replays of old callbacks. Its secret is the API key's
 *   UTF-8 bytes: a Standard Webhooks library takes it as `whsec_` + base64 of the key.
 */
export interface CallbackSignature {
  'x-folio-signature': string;
  'x-folio-job-id': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signCallback(apiKey: string, jobId: string, body: string, timestampSeconds: number): CallbackSignature {
  const timestamp = String(Math.floor(timestampSeconds));
  return {
    'x-folio-signature': `sha256=${createHmac('sha256', apiKey).update(body).digest('hex')}`,
    'x-folio-job-id': jobId,
    'webhook-id': jobId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', apiKey).update(`${jobId}.${timestamp}.${body}`).digest('base64')}`,
  };
}

/**
 * What a receiver does with `X-Folio-Signature`: recompute the HMAC over the raw body bytes and compare in constant
 * time. True only for a signature made with this key over exactly these bytes.
 */
export function verifyCallbackSignature(apiKey: string, body: string | Buffer, header: string | null | undefined): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', apiKey).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.slice('sha256='.length), 'hex'));
}
