import { createLogger } from '@folio/logging';
import { buildApp, type AppOptions } from '../app.ts';

/**
 * The OpenAPI document exactly as `GET /v2/openapi.json` serves it, built in-process without Kafka, Postgres or
 * storage: the document depends only on the routes and their schemas, so every service the app would talk to is an
 * inert stand-in that is never called (no request is served). `npm run generate -w @folio/api` writes it as the
 * SDK's input (`document-file.ts`) and a unit test holds that committed copy to it, so the SDK is generated from the
 * same document the running API would send for the same `publicUrl`.
 */
export async function interfaceDocument(publicUrl = 'http://127.0.0.1:8080'): Promise<Record<string, unknown>> {
  const inert = {
    // KeyCache listens for key changes when the app is ready, JobCache subscribes to job changes at registration.
    sql: { listen: async () => ({ unlisten: async () => {} }) },
    watch: { onChange: () => {} },
  };
  const options = {
    logger: createLogger('openapi', 'silent'),
    db: {},
    submit: { sql: inert.sql },
    view: { sql: inert.sql },
    watch: inert.watch,
    network: {},
    publicUrl,
    syncTimeoutMs: 27_000,
    syncLane: {},
    limiter: {},
    rateLimitScale: 1,
    localFiles: null,
    checks: {},
  } as unknown as AppOptions;
  const app = await buildApp(options);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
