import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ApiKey } from '@folio/keys';
import type { Db, Sql } from '@folio/db';
import type { Logger } from '@folio/logging';
import { ApiError } from '../errors.ts';
import { KeyCache } from './key-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: (ApiKey & { secret: string }) | null;
    /** How the key was sent: Basic changes what the legacy endpoints answer. */
    authScheme: 'bearer' | 'header' | 'query' | 'basic' | null;
  }
  interface FastifyContextConfig {
    /** false on the few routes that need no key (health, readiness, the API reference, signed file links). */
    auth?: boolean;
  }
}

/** The key a request carries, in any of the interface's four forms, or null. */
/**
 * The key as a query parameter (`?api_key=`), for a route's querystring schema: every route that takes a key accepts
 * it there too, and this plugin reads it (the OpenAPI document shows it as a security scheme, not a parameter).
 */
export const API_KEY_QUERY = { api_key: Type.Optional(Type.String({ description: 'the API key, when not sent in a header' })) };

export function keyFromRequest(request: FastifyRequest): { key: string; scheme: NonNullable<FastifyRequest['authScheme']> } | null {
  const authorization = request.headers.authorization;
  if (authorization) {
    const [scheme, value = ''] = authorization.split(/\s+/, 2);
    if (scheme?.toLowerCase() === 'bearer' && value) return { key: value.trim(), scheme: 'bearer' };
    if (scheme?.toLowerCase() === 'basic' && value) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
      if (user) return { key: user, scheme: 'basic' };
    }
  }
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return { key: header.trim(), scheme: 'header' };
  const query = (request.query as Record<string, unknown> | undefined)?.api_key;
  if (typeof query === 'string' && query.trim()) return { key: query.trim(), scheme: 'query' };
  return null;
}

export async function authPlugin(app: FastifyInstance, options: { db: Db; sql: Sql; logger: Logger }): Promise<void> {
  const keys = new KeyCache(options.db, options.sql, options.logger);
  app.addHook('onReady', () => keys.start());
  app.addHook('onClose', () => keys.stop());
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authScheme', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === false) return;
    const sent = keyFromRequest(request);
    if (!sent) throw new ApiError('api_key_required', 'an API key is required: send it as "Authorization: Bearer <key>"');
    const key = await keys.find(sent.key);
    if (!key) throw new ApiError('invalid_api_key', 'the API key is not known');
    if (!key.active) throw new ApiError('subscription_inactive', 'the subscription behind this API key is not active');
    request.apiKey = { ...key, secret: sent.key };
    request.authScheme = sent.scheme;
  });
}
