import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signCallback, verifyCallbackSignature } from './sign.ts';

const key = 'folio_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const jobId = '01927c6e-7d2a-7b3c-8d4e-5f6a7b8c9d0e';
const body = '{"status":"succeeded","job_id":"01927c6e-7d2a-7b3c-8d4e-5f6a7b8c9d0e","note":"é \\u0000 ✓"}';

describe('signCallback', () => {
  it('signs the raw body with the API key as the interface says: sha256= and 64 lowercase hex', () => {
    const headers = signCallback(key, jobId, body, 1_800_000_000);
    expect(headers['x-folio-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['x-folio-signature']).toBe(`sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`);
    expect(headers['x-folio-job-id']).toBe(jobId);
  });

  it('gives Standard Webhooks headers that the reference library verifies, with the key as the raw secret', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signCallback(key, jobId, body, now);
    expect(headers['webhook-id']).toBe(jobId);
    expect(headers['webhook-timestamp']).toBe(String(now));
    const receiver = new Webhook(new TextEncoder().encode(key), { format: 'raw' });
    expect(receiver.verify(body, headers)).toEqual(JSON.parse(body));
    // The same secret in the library's usual whsec_ form.
    expect(new Webhook(`whsec_${Buffer.from(key).toString('base64')}`).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is refused by the reference library when the body, the key or the timestamp is not the signed one', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signCallback(key, jobId, body, now);
    const receiver = new Webhook(new TextEncoder().encode(key), { format: 'raw' });
    expect(() => receiver.verify(body.replace('succeeded', 'failed'), headers)).toThrow();
    expect(() => new Webhook(new TextEncoder().encode(`${key}x`), { format: 'raw' }).verify(body, headers)).toThrow();
    // A replay of a callback signed an hour ago is refused (the library allows five minutes).
    expect(() => receiver.verify(body, signCallback(key, jobId, body, now - 3600))).toThrow();
  });
});

describe('verifyCallbackSignature', () => {
  const header = signCallback(key, jobId, body, 0)['x-folio-signature'];

  it('accepts the signature over exactly these bytes with this key', () => {
    expect(verifyCallbackSignature(key, body, header)).toBe(true);
    expect(verifyCallbackSignature(key, Buffer.from(body, 'utf8'), header)).toBe(true);
  });

  it('refuses another body, another key, a malformed or missing header', () => {
    expect(verifyCallbackSignature(key, `${body} `, header)).toBe(false);
    expect(verifyCallbackSignature(`${key}x`, body, header)).toBe(false);
    expect(verifyCallbackSignature(key, body, header.toUpperCase())).toBe(false);
    expect(verifyCallbackSignature(key, body, header.slice(0, -2))).toBe(false);
    expect(verifyCallbackSignature(key, body, undefined)).toBe(false);
    expect(verifyCallbackSignature(key, body, `sha1=${'0'.repeat(64)}`)).toBe(false);
  });
});
