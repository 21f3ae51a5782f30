import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeySeal, SealError, keySeal } from './seal.ts';

const secret = 'a server secret of at least thirty-two characters';
const keyId = '6f1c2b8e-2a4d-4f6b-9c1e-3d5a7b9c1e2f';
const apiKey = 'folio_Zm9saW8gaXMgYSBkb2N1bWVudCBjb252ZXJzaW9u';

describe('KeySeal', () => {
  it('opens what it sealed, and the seal does not contain the key', () => {
    const seal = new KeySeal(secret);
    const sealed = seal.seal(keyId, apiKey);
    expect(sealed).not.toContain(apiKey);
    expect(sealed).not.toContain(apiKey.slice(6, 20));
    expect(seal.open(keyId, sealed)).toBe(apiKey);
    // Fresh randomness each time: two seals of one key differ.
    expect(seal.seal(keyId, apiKey)).not.toBe(sealed);
  });

  it('refuses a seal moved to another key row, altered, or made under another secret, saying which', () => {
    const seal = new KeySeal(secret);
    const sealed = seal.seal(keyId, apiKey);
    expect(() => seal.open('00000000-0000-4000-8000-000000000000', sealed)).toThrow(/does not authenticate/);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    parts[3] = flipped.toString('base64url');
    expect(() => seal.open(keyId, parts.join('.'))).toThrow(SealError);
    expect(() => new KeySeal(`${secret}!`).open(keyId, sealed)).toThrow(/another server secret/);
    expect(() => seal.open(keyId, 'plain text')).toThrow(/not in a known format/);
  });

  it('without FOLIO_KEY_SECRET, generates one secret into the state folder (0600) and keeps using it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-seal-'));
    const first = keySeal({ keySecret: undefined, keySecretFile: join(dir, 'key-secret') });
    const again = keySeal({ keySecret: undefined, keySecretFile: join(dir, 'key-secret') });
    expect(again.open(keyId, first.seal(keyId, apiKey))).toBe(apiKey);
    expect(statSync(join(dir, 'key-secret')).mode & 0o777).toBe(0o600);
    expect(keySeal({ keySecret: secret, keySecretFile: join(dir, 'key-secret') }).secretId).toBe(new KeySeal(secret).secretId);
  });
});
