import type { FastifyInstance } from 'fastify';
import type { SandboxServices } from '../context.ts';
import { notFound } from '../errors.ts';

/**
 * Stored attachments at their `url`. Like the real service's presigned links, the unguessable id is
 * the capability: no token header is needed to fetch a file.
 */
export function registerFileRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.get('/files/:id/:filename', async (request, reply) => {
    const { id } = request.params as { id: string };
    const file = world.files.get(id);
    if (!file) throw notFound('File');
    return reply
      .type(file.mimeType)
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(file.data);
  });
}
