import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { apiKeys, type Db } from '@folio/db';
import { v4 as uuidv4 } from 'uuid';

export type Plan = 'free' | 'paid';
export const PLANS: readonly Plan[] = ['free', 'paid'];

/** Documents included per calendar month (UTC). The interface fixes the free plan's 100; paid is Folio's choice. */
export const INCLUDED_DOCUMENTS: Record<Plan, number> = { free: 100, paid: 10_000 };

export interface ApiKey {
  id: string;
  plan: Plan;
  documentLimit: number | null;
  active: boolean;
}

const PREFIX = 'folio_';

/** A new key: 32 random bytes, base64url, behind a recognisable prefix (so secret scanners can find leaked ones). */
export function generateKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Keys are stored only as SHA-256. A key is 256 random bits, so a fast hash is enough: nothing is gained by a slow
 * password hash against a secret that cannot be guessed, and lookups stay one indexed equality.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function createKey(db: Db, plan: Plan, documentLimit: number | null = null): Promise<{ key: string } & ApiKey> {
  const key = generateKey();
  const id = uuidv4();
  await db.insert(apiKeys).values({ id, keyHash: hashKey(key), keyPrefix: key.slice(0, PREFIX.length + 6), plan, documentLimit });
  return { key, id, plan, documentLimit, active: true };
}

export async function findKey(db: Db, key: string): Promise<ApiKey | null> {
  return findKeyByHash(db, hashKey(key));
}

/** The key stored under this hash (`hashKey`), or null: for callers that keep their own index by hash. */
export async function findKeyByHash(db: Db, keyHash: string): Promise<ApiKey | null> {
  const [row] = await db
    .select({ id: apiKeys.id, plan: apiKeys.plan, documentLimit: apiKeys.documentLimit, active: apiKeys.active })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ? { ...row, plan: row.plan as Plan } : null;
}

/** Where a change to any key is announced (a trigger on api_keys NOTIFYs the key's id); API processes forget it. */
export const KEY_CHANNEL = 'folio_api_key';

/** Marks the subscription behind a key inactive. Returns false when no such key exists. */
export async function deactivateKey(db: Db, key: string): Promise<boolean> {
  const rows = await db.update(apiKeys).set({ active: false }).where(eq(apiKeys.keyHash, hashKey(key))).returning({ id: apiKeys.id });
  return rows.length > 0;
}
