import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { legacyMethodRefused } from '../routes/legacy-errors.ts';

/** A declared path as a pattern over concrete paths (`/v2/jobs/:id` → /v2/jobs/<one segment>), and its methods. */
interface DeclaredPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** The legacy endpoints answer in their own error shape (interface: legacy error responses). */
const LEGACY_PATH = /^\/v2\/(pdf|html|text)\//;

/**
 * A request for a path the API declares, with a method it does not declare there (PUT /v2/convert, DELETE
 * /v2/jobs/{id}, …), is answered 405 with `Allow` naming the path's methods (RFC 9110) and the interface's error
 * object (invalid_parameters naming `method`), before authentication, parsing or any budget: the method alone
 * decides it. Paths are learnt from the routes as they are registered (HEAD where fastify adds it beside a GET), so
 * the answer can never disagree with the routes or the OpenAPI document made from them. Routes matching every path
 * (the CORS preflight's `OPTIONS *`) are not a path's methods: a preflight is still answered by the CORS plugin.
 *
 * The legacy endpoints answer an undeclared method with 405 and `Allow` too, in their own error shape (`catch-all`):
 * the statuses the interface lists for them (200, 400, 401, 404, 429) are those of their GET and POST; a method they
 * do not have is not one of their operations, and RFC 9110 says what a server answers then.
 *
 * Registered before every other onRequest hook but the request id's, and before any route.
 */
export function undeclaredMethods(app: FastifyInstance): void {
  const declared = new Map<string, DeclaredPath>();
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return;
    let entry = declared.get(route.url);
    if (!entry) {
      entry = { pattern: patternOf(route.url), methods: new Set() };
      declared.set(route.url, entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method.toUpperCase());
  });

  /** The methods declared for a concrete path, or null when no route has that path. */
  const allowedAt = (path: string): string[] | null => {
    const methods = new Set<string>();
    for (const { pattern, methods: declaredMethods } of declared.values()) {
      if (pattern.test(path)) for (const method of declaredMethods) methods.add(method);
    }
    return methods.size > 0 ? [...methods].sort() : null;
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.is404) return;
    const path = request.url.split('?')[0]!;
    const allowed = allowedAt(path);
    if (!allowed || allowed.includes(request.method)) return;
    reply.header('allow', allowed.join(', '));
    const why = `${request.method} is not accepted here; use ${allowed.join(', ')}`;
    if (LEGACY_PATH.test(path)) return reply.code(405).send(legacyMethodRefused(why));
    const refusal = ApiError.invalid('method', why, 405);
    return reply.code(405).send({ status: 'failed', error: refusal.body() });
  });
}

/** A fastify route path as a regular expression over concrete paths: `:name` one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
