import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import multipart from '@fastify/multipart';
import type { Org } from '../domain/model.ts';
import { CONTROL, type SandboxServices, TOKEN_HEADER, V2 } from './context.ts';
import { ApiError, renderError, unauthorized } from './errors.ts';
import { registerChatRoutes } from './routes/chats.ts';
import { registerMessageRoutes } from './routes/messages.ts';
import { registerContactRoutes } from './routes/contacts.ts';
import { registerLineRoutes } from './routes/lines.ts';
import { registerSubscriptionRoutes } from './routes/subscriptions.ts';
import { registerFileRoutes } from './routes/files.ts';
import { registerControlRoutes } from './routes/control.ts';
import { registerUploadTarget } from './v3/attachments.ts';
import { registerV3Routes } from './v3/index.ts';

export function buildApp(services: SandboxServices): FastifyInstance {
  const { world } = services;
  const app = Fastify({
    logger: false,
    // One id per request: the V3 trace id (X-Trace-ID, error bodies, the events it causes).
    genReqId: () => randomUUID(),
    // stop() must not wait for clients' keep-alive connections.
    forceCloseConnections: true,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorateRequest('org', null as unknown as Org);
  app.decorateRequest('slowResponseMs', 0);
  app.addHook('onSend', async (request) => {
    if (request.slowResponseMs > 0)
      await new Promise((resolve) => setTimeout(resolve, request.slowResponseMs));
  });
  // The service takes JSON and multipart only; Fastify's default text/plain parser would let a
  // plain-text body through to validation instead of a 415.
  app.removeContentTypeParser('text/plain');

  app.register(multipart, {
    // Per-request limits (form.ts) follow the live config; these are the outer bounds.
    limits: { fileSize: 1024 * 1024 * 1024, files: 20, fields: 200, fieldSize: 1024 * 1024 },
    // Oversized files are refused by name in form.ts (422), not by the plugin (413).
    throwFileSizeLimit: false,
  });

  // Faults first: they stand for the network and servers in front of the application.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(CONTROL)) return;
    const fault = services.faults.match(request.method, request.url.split('?')[0] ?? '');
    if (!fault) return;
    if (fault.kind === 'latency') {
      await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
      return;
    }
    if (fault.kind === 'slow_response') {
      request.slowResponseMs = fault.latencyMs;
      return;
    }
    if (fault.kind === 'reset') {
      request.raw.socket.destroy();
      return reply;
    }
    if (fault.kind === 'rate_limit') {
      throw new ApiError(429, 'rate_limited', 'Rate limit exceeded', {
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
        format: 'v2',
      });
    }
    throw new ApiError(fault.status, 'internal_error', 'Injected fault', { format: 'v2' });
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(`${V2}/`) && request.url !== V2) return;
    const token = request.headers[TOKEN_HEADER];
    const org = typeof token === 'string' ? world.orgByToken.get(token) : undefined;
    if (!org) throw unauthorized();
    const wait = services.limiter.take(org.token);
    if (wait > 0) {
      throw new ApiError(429, 'rate_limited', `Rate limit exceeded; retry in ${wait} s`, {
        headers: { 'retry-after': String(wait) },
        format: 'v2',
      });
    }
    request.org = org;
  });

  // Every answer of the partner API, 429s included: what the service carried, whoever asked.
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith(CONTROL)) return;
    services.served.total++;
    if (reply.statusCode === 429) services.served.status_429++;
  });

  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = error instanceof ApiError ? error : translateFrameworkError(error);
    for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
    const format = request.routeOptions.config?.errorFormat ?? 'v2';
    return reply.status(apiError.status).send(renderError(apiError, format));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(
      404,
      'not_found',
      `No route for ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.status(404).send(renderError(error, 'v2'));
  });

  registerChatRoutes(app, services);
  registerMessageRoutes(app, services);
  registerContactRoutes(app, services);
  registerLineRoutes(app, services);
  registerSubscriptionRoutes(app, services);
  registerFileRoutes(app, services);
  registerControlRoutes(app, services);
  registerV3Routes(app, services);
  registerUploadTarget(app, services);
  return app;
}

/** Fastify's own errors (body parsing, limits) in the spec's terms. */
function translateFrameworkError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'Request body or file is too large');
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ApiError(413, 'payload_too_large', error.message);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data');
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return new ApiError(error.statusCode, 'invalid_request', error.message);
      }
      return new ApiError(500, 'internal_error', 'Internal server error');
  }
}
