import { Type } from '@sinclair/typebox';
import { ApiError } from '../errors.ts';

/**
 * Cursor pagination, as every listing beyond the interface answers it (GET /v2/jobs, GET /v2/jobs/{id}/events,
 * GET /v2/usage): `limit` items (20 unless asked, at most 100) and `next_cursor`, an opaque token for the page after,
 * or null on the last page. A cursor is the sort key of the last item sent (keyset pagination), so rows added
 * meanwhile never shift a page, and it is only meaningful to the listing that made it.
 */
export const PAGE_LIMIT = { default: 20, max: 100 };

export const PageParams = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default, description: 'items a page (default 20, at most 100)' })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 512,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'next_cursor of the page before, as this listing gave it out (an opaque token); leave out for the first page. Any other token is refused with 400 invalid_parameters naming cursor',
    }),
  ),
};

/** A page's rows: one more than the limit is read, to know whether a page follows. */
export function pageOf<T>(rows: T[], limit: number, keyOf: (last: T) => unknown[]): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  return { items, nextCursor: encodeCursor(keyOf(items[items.length - 1]!)) };
}

/** The sort key of a listing's last item as an opaque token (base64url JSON). */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The sort key a cursor carries, checked against the shape the listing expects (one checker per position); a token
 * that is not one of ours is refused by name, never half-read.
 */
export function decodeCursor<T extends unknown[]>(cursor: string | undefined, shape: { [K in keyof T]: (v: unknown) => v is T[K] }): T | null {
  if (cursor === undefined) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || key.length !== shape.length || !shape.every((check, i) => check(key[i]))) {
    throw ApiError.invalid('cursor', 'is not a next_cursor this listing gave out');
  }
  return key as T;
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isInteger = (v: unknown): v is number => Number.isSafeInteger(v);
export const isInstant = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
