/**
 * The V3 API under /api/partner/v3, beside V2 on the same world: Bearer auth with the same
 * organization tokens, the shared per-token rate limit, `X-Trace-ID` on every answer, the V3 error
 * envelope (with `x-should-retry: false` on lasting 4xx), and the route modules.
 */
import type { FastifyInstance } from 'fastify';
import { type SandboxServices, V3 } from '../context.ts';
import { registerV3AttachmentRoutes } from './attachments.ts';
import { registerV3ChatRoutes } from './chats.ts';
import { V3Error, renderV3Error, shouldRetryHeader, toV3Error, v3 } from './errors.ts';
import { registerV3MessageRoutes } from './messages.ts';
import { registerV3NumberRoutes } from './numbers.ts';
import { registerV3SubscriptionRoutes } from './subscriptions.ts';

/** Paths the V3 map names that the sandbox does not offer (403 code 2011, feature not available). */
const UNAVAILABLE: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string]> = [
  ['POST', '/chats/:chatId/voicememo'],
  ['GET', '/blocked_handles'],
  ['DELETE', '/blocked_handles'],
  ['POST', '/contact_card'],
  ['PATCH', '/contact_card'],
  ['GET', '/payment_requests'],
  ['POST', '/phone_numbers/:phoneNumber/reputation_audit'],
];

const BEARER = /^Bearer (\S+)$/;

export function registerV3Routes(app: FastifyInstance, services: SandboxServices): void {
  const { world, limiter } = services;
  app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        reply.header('x-trace-id', request.id);
        const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
        const org = token === undefined ? undefined : world.orgByToken.get(token);
        if (!org) throw v3(2004, 'Missing or invalid bearer token');
        const wait = limiter.take(org.token);
        if (wait > 0) throw new V3Error(1007, `Retry in ${wait} s`, { retryAfter: wait });
        request.org = org;
      });
      api.setErrorHandler((error, request, reply) => {
        const v3Error = toV3Error(error);
        for (const [name, value] of Object.entries(v3Error.headers)) reply.header(name, value);
        const noRetry = shouldRetryHeader(v3Error.status);
        if (noRetry) reply.header('x-should-retry', noRetry);
        reply.header('x-trace-id', request.id);
        return reply.status(v3Error.status).send(renderV3Error(v3Error, request.id));
      });
      api.setNotFoundHandler((request, reply) => {
        const error = new V3Error(1005, `No route for ${request.method} ${request.url.split('?')[0]}`, {
          status: 404,
        });
        return reply
          .header('x-trace-id', request.id)
          .header('x-should-retry', 'false')
          .status(404)
          .send(renderV3Error(error, request.id));
      });
      registerV3ChatRoutes(api, services);
      registerV3MessageRoutes(api, services);
      registerV3AttachmentRoutes(api, services);
      registerV3NumberRoutes(api, services);
      registerV3SubscriptionRoutes(api, services);
      for (const [method, path] of UNAVAILABLE) {
        api.route({
          method,
          url: path,
          handler: async () => {
            throw v3(2011, `${method} ${path} is not available in this service`);
          },
        });
      }
    },
    { prefix: V3 },
  );
}
