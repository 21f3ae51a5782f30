import type { FastifyInstance } from 'fastify';
import { BlobNotFoundError, type LocalDiskStore } from '@folio/storage';
import { ApiError } from '../errors.ts';

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** Stored files behind signed, expiring links (local-disk storage only; with S3 the links are presigned). */
export async function fileRoutes(app: FastifyInstance, options: { store: LocalDiskStore }): Promise<void> {
  app.get<{ Params: { '*': string }; Querystring: { expires?: string; signature?: string } }>(
    '/files/*',
    { config: { auth: false }, schema: { hide: true } as object },
    async (request, reply) => {
      const key = `files/${request.params['*']}`;
      const { expires, signature } = request.query;
      if (!options.store.verify(key, expires, signature)) {
        throw new ApiError('invalid_parameters', 'this link is invalid or has expired', { status: 403 });
      }
      try {
        const bytes = await options.store.get(key);
        const extension = key.slice(key.lastIndexOf('.') + 1);
        // An html result (legacy /v2/html/create) is served from the API's own origin: sandboxed, it can run nothing here.
        if (extension === 'html') reply.header('content-security-policy', 'sandbox');
        return reply
          .header('content-type', TYPES[extension] ?? 'application/octet-stream')
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, max-age=3600')
          .send(bytes);
      } catch (error) {
        if (error instanceof BlobNotFoundError) {
          throw new ApiError('invalid_parameters', 'no such file', { status: 404 });
        }
        throw error;
      }
    },
  );
}
