import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, Events } from '../../shared/contract/events.ts';
import type { AppCore } from '../core/app/app-core.ts';
import { toBridgeError } from '../core/app/errors.ts';
import { createLogger } from '../core/log/logger.ts';
import { MAX_ATTACHMENT_BYTES } from '../core/api/outgoing.ts';

const log = createLogger('browser-host');
const COOKIE = 'parley_session';

export interface BrowserServerOptions {
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  port?: number;
  /** Max bytes of one staged upload. */
  maxUploadBytes?: number;
}

export interface BrowserServer {
  /** The URL to open: carries the per-launch secret once; the page then lives on a cookie. */
  launchUrl: string;
  origin: string;
  port: number;
  /** Sends an event to every connected page. */
  broadcast<E extends EventName>(event: E, payload: Events[E]): void;
  close(): Promise<void>;
}

function securityHeaders(reply: FastifyReply, origin: string): void {
  reply.header(
    'content-security-policy',
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "font-src 'self' data:",
      `connect-src 'self' ${origin.replace('http:', 'ws:')}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; '),
  );
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
}

function cookieValue(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return undefined;
}

function sameSecret(given: string | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Serves the built renderer and carries the bridge over a WebSocket, on 127.0.0.1 only. A random
 * per-launch secret is required: it arrives once in the launch URL and becomes an HttpOnly,
 * SameSite=Strict cookie; the WebSocket also checks Origin. Only the renderer's files are served.
 */
export async function startBrowserServer(
  core: AppCore,
  options: BrowserServerOptions,
): Promise<BrowserServer> {
  const secret = randomBytes(24).toString('base64url');
  const maxUpload = options.maxUploadBytes ?? MAX_ATTACHMENT_BYTES;
  // Shutting down must not wait for a browser's keep-alive connections.
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
  });
  let origin = 'http://127.0.0.1';
  const sockets = new Set<WebSocket>();

  const authorized = (request: FastifyRequest | IncomingMessage): boolean =>
    sameSecret(cookieValue(request.headers.cookie), secret);

  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply, origin);
    const url = new URL(request.url, origin);
    const key = url.searchParams.get('k');
    if (key !== null) {
      if (!sameSecret(key, secret))
        return reply
          .status(401)
          .type('text/plain')
          .send('This link is not valid any more. Open the URL Parley printed.');
      reply.header('set-cookie', `${COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/`);
      return reply.redirect('/', 303);
    }
    if (!authorized(request)) {
      return reply
        .status(401)
        .type('text/plain')
        .send('Open the URL printed by `npm run web` (it carries this launch’s key).');
    }
  });

  await app.register(multipart, {
    limits: { fileSize: maxUpload, files: 1, fields: 0 },
    throwFileSizeLimit: true,
  });
  await app.register(fastifyStatic, {
    root: options.rendererDir,
    index: ['index.html'],
    wildcard: false,
    serveDotFiles: false,
    decorateReply: true,
  });

  // Only the renderer's own files exist: anything else, traversal attempts included, is a 404.
  app.setNotFoundHandler((_request, reply) => reply.status(404).type('text/plain').send('Not found'));

  app.post('/upload', async (request, reply) => {
    if (request.headers['x-parley-upload'] !== '1')
      return reply
        .status(403)
        .send({ code: 'forbidden', message: 'Uploads come from the app only', retryable: false });
    try {
      const file = await request.file();
      if (!file)
        return reply
          .status(400)
          .send({ code: 'invalid_input', message: 'No file in the upload', retryable: false });
      const bytes = await file.toBuffer();
      const staged = await core.session.staging.stageBytes(bytes, file.filename);
      return {
        id: staged.id,
        filename: staged.filename,
        mimeType: staged.mimeType,
        size: staged.size,
        previewUrl: `parley-staged:${staged.id}`,
      };
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        return reply.status(413).send({
          code: 'attachment_rejected',
          message: `Files can be at most ${maxUpload >= 1024 * 1024 ? `${Math.round(maxUpload / 1024 / 1024)} MB` : `${Math.ceil(maxUpload / 1024)} KB`}`,
          retryable: false,
        });
      }
      const shape = toBridgeError(error);
      return reply.status(shape.code === 'attachment_rejected' ? 422 : 500).send(shape);
    }
  });

  const serveFile = async (
    reply: FastifyReply,
    file: { path: string; mimeType: string; filename: string } | undefined,
  ) => {
    if (!file) return reply.status(404).type('text/plain').send('Not found');
    const inline = /^(image|video|audio)\//.test(file.mimeType) && file.mimeType !== 'image/svg+xml';
    reply.type(file.mimeType);
    reply.header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    );
    reply.header('cache-control', 'private, max-age=3600');
    return reply.send(createReadStream(file.path));
  };

  app.get('/attachments/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    try {
      return await serveFile(reply, await core.attachmentFile(id));
    } catch (error) {
      return reply.status(502).send(toBridgeError(error));
    }
  });

  app.get('/staged/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const staged = core.session.staging.get(id);
    return serveFile(
      reply,
      staged ? { path: staged.path, mimeType: staged.mimeType, filename: staged.filename } : undefined,
    );
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  app.server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    const allowedOrigins = [origin, origin.replace('127.0.0.1', 'localhost')];
    if (
      path !== '/bridge' ||
      !authorized(request) ||
      !allowedOrigins.includes(request.headers.origin ?? '')
    ) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => {
        let frame: { id?: unknown; method?: unknown; input?: unknown };
        try {
          frame = JSON.parse(String(data)) as typeof frame;
        } catch {
          ws.send(
            JSON.stringify({
              id: null,
              ok: false,
              error: { code: 'invalid_input', message: 'Malformed frame', retryable: false },
            }),
          );
          return;
        }
        if (typeof frame.id !== 'number' || typeof frame.method !== 'string') {
          ws.send(
            JSON.stringify({
              id: frame.id ?? null,
              ok: false,
              error: {
                code: 'invalid_input',
                message: 'A call needs a numeric id and a method',
                retryable: false,
              },
            }),
          );
          return;
        }
        const id = frame.id;
        void core.dispatch(frame.method, frame.input).then((result) => {
          if (ws.readyState !== ws.OPEN) return;
          ws.send(
            JSON.stringify(
              result.ok ? { id, ok: true, value: result.value } : { id, ok: false, error: result.error },
            ),
          );
        });
      });
    });
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  log.info('browser host listening', { origin });
  return {
    launchUrl: `${origin}/?k=${secret}`,
    origin,
    port,
    broadcast(event, payload) {
      const frame = JSON.stringify({ event, payload });
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
    },
    async close() {
      for (const ws of sockets) {
        ws.close(1001, 'Parley is shutting down');
        // A page that does not answer the closing handshake must not hold the shutdown.
        setTimeout(() => ws.terminate(), 500).unref();
      }
      wss.close();
      await app.close();
    },
  };
}
