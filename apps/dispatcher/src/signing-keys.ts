import type { Db } from '@folio/db';
import { signingKey, type KeySeal, type Plan } from '@folio/keys';

type Signer = { key: string; plan: Plan } | { unavailable: string };

/** How long an opened key is kept in memory: a burst of callbacks for one key opens it once. */
const KEEP_MS = 60_000;

/**
 * The keys that sign callbacks, opened from their sealed copies on demand and kept briefly (only in this process's
 * memory), so a dispatcher delivering thousands of callbacks a second does not read and decrypt a key for each.
 */
export class SigningKeys {
  private readonly opened = new Map<string, { signer: Promise<Signer>; until: number }>();

  private readonly db: Db;
  private readonly seal: KeySeal;
  constructor(
    db: Db,
    seal: KeySeal,
  ) {
    this.db = db;
    this.seal = seal;
  }

  get(keyId: string): Promise<Signer> {
    const now = Date.now();
    const kept = this.opened.get(keyId);
    if (kept && kept.until > now) return kept.signer;
    if (this.opened.size > 10_000) this.opened.clear();
    const signer = signingKey(this.db, this.seal, keyId);
    this.opened.set(keyId, { signer, until: now + KEEP_MS });
    signer.catch(() => this.opened.delete(keyId));
    return signer;
  }
}
