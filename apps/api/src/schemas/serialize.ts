import type { FastifyInstance } from 'fastify';

/**
 * Response schemas describe what the API sends; they must never change it. Fastify would otherwise serialize a body
 * with fast-json-stringify compiled from its route's response schema, which drops every field the schema does not
 * name and coerces the others to the declared type: a schema that lagged behind the code would silently change
 * answers (and the callback body must stay byte for byte what GET /v2/jobs/{id} returns). So every body is
 * serialized as fastify does when there is no schema: JSON.stringify.
 */
export function serializeAsSent(app: FastifyInstance): void {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
