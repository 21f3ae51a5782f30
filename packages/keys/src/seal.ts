import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The copy of each API key that signs its callbacks. Authentication needs only a hash of a key, but an HMAC needs the
 * key itself, so one copy is kept sealed: AES-256-GCM under a key derived from a server secret that lives outside
 * the database (FOLIO_KEY_SECRET, or a file in the state folder). A stolen database alone reveals no key; the sealed
 * copy is bound to its key's row (the row id is the associated data), so it cannot be moved to another row; and the
 * seal names the secret it was made under, so a rotated secret is reported as such instead of as corrupt data.
 * The plain key exists only in the dispatcher's memory while it signs, never in an event or a log line.
 */
export class KeySeal {
  private readonly key: Buffer;
  /** Names the secret (not secret itself: a hash of the derived key), so seals made under another one are recognised. */
  readonly secretId: string;

  constructor(secret: string | Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), 'folio-key-seal', 'aes-256-gcm v1', 32));
    this.secretId = createHash('sha256').update(this.key).digest('base64url').slice(0, 8);
  }

  /** `v1.<secret id>.<iv>.<ciphertext>.<tag>`, base64url parts. */
  seal(keyId: string, apiKey: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(keyId));
    const ciphertext = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
    return ['v1', this.secretId, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The key sealed for this row; a SealError says why it cannot be had. */
  open(keyId: string, sealed: string): string {
    const [version, secretId, iv, ciphertext, tag] = sealed.split('.');
    if (version !== 'v1' || !secretId || iv === undefined || ciphertext === undefined || tag === undefined) {
      throw new SealError('the sealed copy of the key is not in a known format');
    }
    if (secretId !== this.secretId) {
      throw new SealError('the key was sealed under another server secret (FOLIO_KEY_SECRET changed)');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(keyId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError('the sealed copy of the key does not authenticate (altered, or moved from another key)');
    }
  }
}

export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

/**
 * The seal of this deployment: FOLIO_KEY_SECRET when set (required when processes run on several hosts), otherwise
 * a secret generated once into a file (FOLIO_KEY_SECRET_FILE, by default `key-secret` in the state folder), which
 * every process of a one-machine deployment and the key CLI share.
 */
export function keySeal(options: { keySecret: string | undefined; keySecretFile: string }): KeySeal {
  if (options.keySecret) return new KeySeal(options.keySecret);
  const path = options.keySecretFile;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, randomBytes(32), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first
    }
  }
  return new KeySeal(readFileSync(path));
}
