import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, Events } from '../../shared/contract/events.ts';
import { MAX_ATTACHMENT_BYTES, MAX_BRIDGE_FRAME_BYTES } from '../../shared/contract/limits.ts';
import { thumbnailOf } from '../../shared/contract/media.ts';
import { stagedView } from '../../shared/contract/staged.ts';
import type { AppCore, LocalAttachment } from '../core/index.ts';
import { createLogger } from '../core/log/logger.ts';
import { userFileHeaders } from './user-files.ts';

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

function securityHeaders(origin: string): Record<string, string> {
  return {
    'content-security-policy': [
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
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/** A plain-text answer that names only the status: never the path or anything else the request said. */
function plainStatus(reply: FastifyReply, status: number, headers: Record<string, string>) {
  return reply
    .status(status)
    .headers(headers)
    .type('text/plain; charset=utf-8')
    .send(STATUS_CODES[status] ?? 'Error');
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
 * What only calls and failures need (zod, the core's error mapping), loaded once the server listens
 * and beside the core's own modules, so that nothing but the web server stands between launch and
 * the page's first request.
 */
let support:
  | Promise<{
      parseFrame: typeof import('./bridge-frames.ts').parseFrame;
      toBridgeError: typeof import('../core/index.ts').toBridgeError;
    }>
  | undefined;
function bridgeSupport() {
  support ??= Promise.all([import('./bridge-frames.ts'), import('../core/index.ts')]).then(
    ([frames, errors]) => ({ parseFrame: frames.parseFrame, toBridgeError: errors.toBridgeError }),
  );
  return support;
}

/**
 * Serves the built renderer and carries the bridge over a WebSocket, on 127.0.0.1 only. A random
 * per-launch secret is required: it arrives once in the launch URL and becomes an HttpOnly,
 * SameSite=Strict cookie; the WebSocket also checks Origin. Only the renderer's files are served.
 */
export async function startBrowserServer(
  core: AppCore | Promise<AppCore>,
  options: BrowserServerOptions,
): Promise<BrowserServer> {
  // The page may load (and call) while the core is still starting: its calls wait for it.
  const ready = Promise.resolve(core);
  ready.catch(() => undefined); // a core that fails to start is the host's to report
  const secret = randomBytes(24).toString('base64url');
  const maxUpload = options.maxUploadBytes ?? MAX_ATTACHMENT_BYTES;
  let origin = 'http://127.0.0.1';
  // Only the names this server is reached by on loopback: a page on any other name (DNS rebinding
  // points a stranger's name at 127.0.0.1) is not served, not even a 401.
  let allowedHosts = new Set<string>();
  const sockets = new Set<WebSocket>();
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    // Shutting down must not wait for a browser's keep-alive connections.
    forceCloseConnections: true,
    return503OnClosing: false,
    // The framework's own refusals (a malformed URL, an over-long parameter, a broken request)
    // carry the same headers as every other response and never echo the request back.
    frameworkErrors: (_error, _request, reply) => plainStatus(reply, 400, securityHeaders(origin)),
    clientErrorHandler: (_error, socket: Socket) => {
      if (!socket.writable) return socket.destroy();
      const body = STATUS_CODES[400] as string;
      const headers = Object.entries(securityHeaders(origin))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`,
      );
    },
  });

  const authorized = (request: FastifyRequest | IncomingMessage): boolean =>
    sameSecret(cookieValue(request.headers.cookie), secret);
  const knownHost = (request: FastifyRequest | IncomingMessage): boolean =>
    allowedHosts.has((request.headers.host ?? '').toLowerCase());

  app.setErrorHandler((error, _request, reply) => {
    const code = (error as { statusCode?: number }).statusCode;
    const status = code && code >= 400 && code < 600 ? code : 500;
    if (status >= 500) log.warn('request failed', { error: error instanceof Error ? error.message : '' });
    return plainStatus(reply, status, securityHeaders(origin));
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(securityHeaders(origin));
    if (!knownHost(request)) return plainStatus(reply, 403, {});
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
    // The build names every asset by its content: the browser keeps them (and the code it compiled
    // from them) for good and asks again only for the page, which names this build's assets.
    cacheControl: false,
    setHeaders: (reply, path) =>
      void reply.header('cache-control', isAsset(path) ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });

  // Only the renderer's own files exist: anything else, traversal attempts included, is a 404.
  app.setNotFoundHandler((_request, reply) => plainStatus(reply, 404, {}));

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
      return stagedView(await (await ready).session.staging.stageBytes(bytes, file.filename));
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        return reply.status(413).send({
          code: 'attachment_rejected',
          message: `Files can be at most ${maxUpload >= 1024 * 1024 ? `${Math.round(maxUpload / 1024 / 1024)} MB` : `${Math.ceil(maxUpload / 1024)} KB`}`,
          retryable: false,
        });
      }
      const shape = (await bridgeSupport()).toBridgeError(error);
      return reply.status(shape.code === 'attachment_rejected' ? 422 : 500).send(shape);
    }
  });

  const serveFile = async (reply: FastifyReply, file: LocalAttachment | undefined) => {
    if (!file) return plainStatus(reply, 404, {});
    // A customer's file is never a document of this origin: see user-files.ts.
    reply.headers(userFileHeaders(file));
    return reply.send(createReadStream(file.path));
  };

  // A received attachment, and what the timeline draws of it (its display-size thumbnail, or the
  // file itself when it has none): both customers' files, served alike.
  const attachmentRoute = (
    path: string,
    pick: (core: AppCore, id: string, query: URLSearchParams) => Promise<LocalAttachment | undefined> | null,
  ) =>
    app.get(path, async (request, reply) => {
      const { id } = request.params as { id: string };
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      try {
        const picking = pick(await ready, id, query);
        if (!picking) return plainStatus(reply, 400, {});
        return await serveFile(reply, await picking);
      } catch (error) {
        return reply.status(502).send((await bridgeSupport()).toBridgeError(error));
      }
    });
  attachmentRoute('/attachments/:id', (core, id) => core.attachmentFile(id));
  // `?scale=` names the screen's pixel ratio it is made for, `?size=` the box (the bubble's or the
  // viewer's); one the core makes none for is refused.
  attachmentRoute('/thumbnails/:id', (core, id, query) => {
    const wanted = thumbnailOf(query);
    return wanted ? core.attachmentThumbnail(id, wanted.scale, wanted.size) : null;
  });

  app.get('/staged/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    // No workspace open is no such file either: 404, not a failure.
    return serveFile(reply, (await ready).stagedFile(id));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BRIDGE_FRAME_BYTES });
  wss.on('error', (error) => log.warn('bridge server error', { error: error.message }));
  app.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // A client that resets the connection mid-handshake must not take the host down.
    socket.on('error', () => socket.destroy());
    const path = (request.url ?? '').split('?')[0];
    const allowedOrigins = [origin, origin.replace('127.0.0.1', 'localhost')];
    if (
      path !== '/bridge' ||
      !knownHost(request) ||
      !authorized(request) ||
      !allowedOrigins.includes(request.headers.origin ?? '')
    ) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      // A frame over the limit or not valid UTF-8: ws closes the socket (1009 / 1007) after this. The
      // page's transport never sends a frame over the limit (it refuses that call in words), so only
      // a page that is not ours can lose its connection this way.
      ws.on('error', (error) => log.warn('bridge socket closed on a bad frame', { error: error.message }));
      const answer = (frame: object): void => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
      };
      ws.on('message', (data, isBinary) => {
        // Frames are read once their reader has loaded, and calls dispatched once the core has
        // started (the page may be quicker than both), in the order they came.
        void bridgeSupport()
          .then(({ parseFrame, toBridgeError }) => {
            const call = parseFrame(data, isBinary);
            if (!call.ok) {
              answer({
                id: call.id,
                ok: false,
                error: { code: 'invalid_input', message: call.message, retryable: false },
              });
              return;
            }
            const { id } = call;
            void ready
              .then((started) => started.dispatch(call.method, call.input))
              .catch((error: unknown) => ({ ok: false as const, error: toBridgeError(error) }))
              .then((result) =>
                answer(
                  result.ok ? { id, ok: true, value: result.value } : { id, ok: false, error: result.error },
                ),
              );
          })
          .catch((error: unknown) => log.warn('bridge call not handled', { error: String(error) }));
      });
    });
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  void bridgeSupport();
  const port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
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

/** A content-hashed build output (Vite's `assets/name-<hash>.ext`), as opposed to the page itself. */
function isAsset(path: string): boolean {
  return /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+$/.test(path);
}
