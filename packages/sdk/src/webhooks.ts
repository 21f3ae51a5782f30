import type { Job } from './types.ts';

/** Headers as fetch gives them, or as Node's http (and most frameworks) do: a plain object with lower-case names. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How old (or how far ahead) a Standard Webhooks timestamp may be. Default 300 s, the scheme's usual tolerance. */
  toleranceSeconds?: number;
  /**
   * `any` (default): the Standard Webhooks headers when present, otherwise X-Folio-Signature.
   * `standard`: only Standard Webhooks, whose timestamp lets a receiver refuse replayed callbacks.
   */
  scheme?: 'any' | 'standard';
  /** Now, in milliseconds (tests). */
  now?: number;
}

export type WebhookVerification =
  | { valid: true; scheme: 'folio' | 'standard'; job: Job }
  | { valid: false; reason: 'missing_signature' | 'bad_signature' | 'timestamp_out_of_range' | 'malformed_body' };

const encoder = new TextEncoder();
type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Checks a job-finished callback before trusting it: an HMAC-SHA256 keyed with the API key that started the job,
 * in either scheme the API sends (packages/webhooks/src/sign.ts):
 * - Standard Webhooks: `webhook-signature: v1,<base64>` over `<webhook-id>.<webhook-timestamp>.<body>`, with the
 *   timestamp checked against `toleranceSeconds` so an old callback cannot be replayed;
 * - the interface's own: `X-Folio-Signature: sha256=<hex>` over the body alone.
 * Pass the body exactly as received (bytes or the undecoded string), not re-serialized JSON. The comparison is Web
 * Crypto's HMAC verify, which takes the same time wherever the signatures differ.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  apiKey: string,
  options: VerifyOptions = {},
): Promise<WebhookVerification> {
  // A copy of the caller's bytes (Web Crypto wants an ArrayBuffer-backed view, never a shared one).
  const body: Bytes = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const header = (name: string) => headerOf(headers, name);
  const key = await crypto.subtle.importKey('raw', encoder.encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const standard = header('webhook-signature');
  let scheme: 'folio' | 'standard';
  if (id !== undefined || timestamp !== undefined || standard !== undefined) {
    if (id === undefined || timestamp === undefined || standard === undefined) return { valid: false, reason: 'missing_signature' };
    const now = (options.now ?? Date.now()) / 1000;
    if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
      return { valid: false, reason: 'timestamp_out_of_range' };
    }
    const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
    // Several space-separated signatures may be sent (while a secret is rotated): any v1 one may match.
    const candidates = standard.split(' ').filter((s) => s.startsWith('v1,')).map((s) => fromBase64(s.slice(3)));
    if (!(await anyVerifies(key, candidates, signed))) return { valid: false, reason: 'bad_signature' };
    scheme = 'standard';
  } else {
    const folio = header('x-folio-signature');
    if (options.scheme === 'standard' || folio === undefined) return { valid: false, reason: 'missing_signature' };
    const match = /^sha256=([0-9a-f]{64})$/.exec(folio);
    if (!match || !(await anyVerifies(key, [fromHex(match[1]!)], body))) return { valid: false, reason: 'bad_signature' };
    scheme = 'folio';
  }

  try {
    return { valid: true, scheme, job: JSON.parse(new TextDecoder().decode(body)) as Job };
  } catch {
    return { valid: false, reason: 'malformed_body' };
  }
}

/** Web Crypto's key type, named through the API so the code compiles against DOM and Node typings alike. */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

async function anyVerifies(key: HmacKey, signatures: (Bytes | null)[], data: Bytes): Promise<boolean> {
  let valid = false;
  // Every candidate is checked (no early exit), so timing does not tell which one matched.
  for (const signature of signatures) if (signature && (await crypto.subtle.verify('HMAC', key, signature, data))) valid = true;
  return valid;
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(' ') : value;
}

function concat(a: Bytes, b: Bytes): Bytes {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function fromHex(hex: string): Bytes {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Standard base64 to bytes; null when it is not base64 (atob exists in browsers and Node alike). */
function fromBase64(text: string): Bytes | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
