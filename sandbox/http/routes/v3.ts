import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SandboxServices } from '../context.ts';

/**
 * The sandbox emulates V2 only. V3 paths answer in the V3 error envelope so clients can prove they
 * parse it: 401 code 2004 without a valid bearer token, otherwise 403 code 2011 (feature not available).
 */
export function registerV3Routes(app: FastifyInstance, { world }: SandboxServices): void {
  app.all('/api/partner/v3/*', async (request, reply) => {
    const traceId = randomUUID();
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const error =
      token && world.orgByToken.has(token)
        ? {
            status: 403,
            code: 2011,
            message: 'Feature not available',
            doc_url: 'https://docs.example.invalid/errors/2011',
          }
        : {
            status: 401,
            code: 2004,
            message: 'Unauthorized',
            doc_url: 'https://docs.example.invalid/errors/2004',
          };
    return reply
      .status(error.status)
      .header('x-trace-id', traceId)
      .send({ success: false, error, trace_id: traceId });
  });
}
