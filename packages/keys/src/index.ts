import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { apiKeys, type Db } from '@folio/db';
import { v4 as uuidv4 } from 'uuid';
import { KeySeal, SealError } from './seal.ts';

export { KeySeal, SealError, keySeal } from './seal.ts';

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

/** Makes a key. Its hash authenticates requests; its sealed copy (see seal.ts) signs the callbacks of its jobs. */
export async function createKey(db: Db, seal: KeySeal, plan: Plan, documentLimit: number | null = null): Promise<{ key: string } & ApiKey> {
  const key = generateKey();
  const id = uuidv4();
  await db.insert(apiKeys).values({
    id,
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, PREFIX.length + 6),
    keySealed: seal.seal(id, key),
    plan,
    documentLimit,
  });
  return { key, id, plan, documentLimit, active: true };
}

/** The key that signs a job's callback, and its plan (the callback body reports usage under it), or why there is none. */
export async function signingKey(db: Db, seal: KeySeal, keyId: string): Promise<{ key: string; plan: Plan } | { unavailable: string }> {
  const [row] = await db.select({ sealed: apiKeys.keySealed, plan: apiKeys.plan }).from(apiKeys).where(eq(apiKeys.id, keyId)).limit(1);
  if (!row) return { unavailable: 'the API key that started the job no longer exists' };
  if (!row.sealed) return { unavailable: 'the API key that started the job was made before callbacks were signed, and has no sealed copy' };
  try {
    return { key: seal.open(keyId, row.sealed), plan: row.plan as Plan };
  } catch (error) {
    if (error instanceof SealError) return { unavailable: error.message };
    throw error;
  }
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
