import { describe, expect, it } from 'vitest';
// The dispatcher's own signer: what the SDK accepts is what the service sends.
import { signCallback } from '../../webhooks/src/sign.ts';
import { JOB_ID } from './test-support/fake-api.ts';
import { verifyWebhook } from './webhooks.ts';

const KEY = 'fk_live_0123456789abcdef';
const body = JSON.stringify({ status: 'succeeded', job_id: JOB_ID, created_at: '2026-01-01T00:00:00.000Z' });
const now = Date.UTC(2026, 0, 1, 12);
// Spread: an interface has no index signature, the plain object a server hands over does.
const signed = (at = now / 1000, text = body) => ({ ...signCallback(KEY, JOB_ID, text, at) });
const only = (headers: object, names: string[]) => Object.fromEntries(Object.entries(headers).filter(([name]) => names.includes(name)));
const STANDARD = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
const FOLIO = ['x-folio-signature', 'x-folio-job-id'];

describe('verifyWebhook', () => {
  it('accepts the dispatcher’s signature in either scheme, as a string, bytes or a Headers', async () => {
    expect(await verifyWebhook(body, signed(), KEY, { now })).toMatchObject({ valid: true, scheme: 'standard', job: { job_id: JOB_ID } });
    expect(await verifyWebhook(body, only(signed(), FOLIO), KEY, { now })).toMatchObject({ valid: true, scheme: 'folio' });
    expect(await verifyWebhook(new TextEncoder().encode(body), new Headers(only(signed(), STANDARD)), KEY, { now })).toMatchObject({ valid: true });
    // Node's http gives header names in lower case; a framework may not.
    expect(await verifyWebhook(body, { 'X-Folio-Signature': signed()['x-folio-signature'] }, KEY)).toMatchObject({ valid: true });
  });

  it('refuses a tampered body and the wrong key, in both schemes', async () => {
    const tampered = body.replace('succeeded', 'failed');
    for (const names of [STANDARD, FOLIO]) {
      expect(await verifyWebhook(tampered, only(signed(), names), KEY, { now }), names[0]).toEqual({ valid: false, reason: 'bad_signature' });
      expect(await verifyWebhook(body, only(signed(), names), `${KEY}x`, { now }), names[0]).toEqual({ valid: false, reason: 'bad_signature' });
    }
  });

  it('refuses an old or future timestamp (a replay), even beside a valid X-Folio-Signature', async () => {
    expect(await verifyWebhook(body, signed(now / 1000 - 301), KEY, { now })).toEqual({ valid: false, reason: 'timestamp_out_of_range' });
    expect(await verifyWebhook(body, signed(now / 1000 + 301), KEY, { now })).toEqual({ valid: false, reason: 'timestamp_out_of_range' });
    expect(await verifyWebhook(body, signed(now / 1000 - 299), KEY, { now })).toMatchObject({ valid: true });
    expect(await verifyWebhook(body, signed(now / 1000 - 3600), KEY, { now, toleranceSeconds: 7200 })).toMatchObject({ valid: true });
  });

  it('refuses missing or malformed signatures, and the interface’s scheme when only Standard Webhooks is allowed', async () => {
    expect(await verifyWebhook(body, {}, KEY)).toEqual({ valid: false, reason: 'missing_signature' });
    expect(await verifyWebhook(body, only(signed(), ['webhook-id', 'webhook-signature']), KEY, { now })).toEqual({ valid: false, reason: 'missing_signature' });
    expect(await verifyWebhook(body, { 'x-folio-signature': 'sha256=abc' }, KEY)).toEqual({ valid: false, reason: 'bad_signature' });
    expect(await verifyWebhook(body, { ...only(signed(), STANDARD), 'webhook-signature': 'v1,!!notbase64' }, KEY, { now })).toEqual({ valid: false, reason: 'bad_signature' });
    expect(await verifyWebhook(body, only(signed(), FOLIO), KEY, { now, scheme: 'standard' })).toEqual({ valid: false, reason: 'missing_signature' });
  });

  it('accepts any one of several Standard Webhooks signatures (a rotated secret)', async () => {
    const headers = signed();
    const rotated = { ...headers, 'webhook-signature': `v1,${btoa('x'.repeat(32))} ${headers['webhook-signature']}` };
    expect(await verifyWebhook(body, rotated, KEY, { now })).toMatchObject({ valid: true });
  });
});
