import type { Db, Sql } from '@folio/db';
import { findKeyByHash, hashKey, KEY_CHANNEL, type ApiKey } from '@folio/keys';
import type { Logger } from '@folio/logging';

const MAX_KEYS = 10_000;
/** A backstop only: a change is announced at once; this bounds what a notification lost in a reconnect could cost. */
const TTL_MS = 60_000;

interface Entry {
  key: ApiKey;
  expires: number;
}

/**
 * Key lookups without a round trip: known keys are kept by hash in memory. Any change to a key row (deactivation by
 * `folio keys deactivate` or by hand) fires a trigger that NOTIFYs the key's id, and every API process forgets the
 * key before its next request. A lookup that overlapped any change is not kept (it may have read the row before the
 * change); after the listening connection is re-established, everything is forgotten (notifications sent while it
 * was down are lost). Unknown keys are never kept, so guessing fills nothing. Entries are found by SHA-256 of the
 * key, as in the table: timing reveals nothing about a key that an attacker can use.
 */
export class KeyCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly hashById = new Map<string, string>();
  /** Bumped by every change and reconnect: a lookup begun before a bump is not kept. */
  private epoch = 0;
  private listening = false;
  private unlisten: (() => Promise<void>) | null = null;

  private readonly db: Db;
  private readonly sql: Sql;
  private readonly logger: Logger;
  constructor(
    db: Db,
    sql: Sql,
    logger: Logger,
  ) {
    this.db = db;
    this.sql = sql;
    this.logger = logger;
  }

  async start(): Promise<void> {
    const { unlisten } = await this.sql.listen(
      KEY_CHANNEL,
      (keyId) => this.forget(keyId),
      () => {
        this.clear();
        this.listening = true;
      },
    );
    this.unlisten = unlisten;
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.clear();
    await this.unlisten?.().catch((error) => this.logger.warn({ err: error }, 'key cache unlisten failed'));
  }

  async find(secret: string): Promise<ApiKey | null> {
    const hash = hashKey(secret);
    const hit = this.byHash.get(hash);
    if (hit && hit.expires > Date.now()) return hit.key;
    const epoch = this.epoch;
    const key = await findKeyByHash(this.db, hash);
    if (key && this.listening && epoch === this.epoch) this.keep(hash, key);
    return key;
  }

  private keep(hash: string, key: ApiKey): void {
    if (this.byHash.size >= MAX_KEYS) {
      const [oldest] = this.byHash.keys();
      const entry = this.byHash.get(oldest!);
      this.byHash.delete(oldest!);
      if (entry) this.hashById.delete(entry.key.id);
    }
    this.byHash.set(hash, { key, expires: Date.now() + TTL_MS });
    this.hashById.set(key.id, hash);
  }

  private forget(keyId: string): void {
    this.epoch++;
    const hash = this.hashById.get(keyId);
    if (hash) this.byHash.delete(hash);
    this.hashById.delete(keyId);
  }

  private clear(): void {
    this.epoch++;
    this.byHash.clear();
    this.hashById.clear();
  }
}
