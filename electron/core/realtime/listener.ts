/**
 * The local webhook listener: node:http on loopback, one unguessable path per workspace. Every
 * delivery is checked in this order, and the first failure answers without touching the store:
 *
 *   unknown path 404 → method 405 → size 413 (declared or counted; reading stops) → signature 401
 *   → JSON 400 → envelope and data (parseWebhookEvent) 400 → durable enqueue (else 500) → 200.
 *
 * A route speaks one API version. V2 routes check `X-Webhook-Signature` (HMAC of the body); V3 routes
 * check Standard Webhooks (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`)
 * and then require the body's `event_id` to be the signed `webhook-id` (else 400), so the id the
 * inbox deduplicates by is the one the signature covers. A delivery is verified only by its route's
 * scheme: a V2-signed body on a V3 path is unsigned there, and the other way round.
 *
 * A refusal on a served path (401, 400, 413, 500) is told to the route after the answer: the event
 * it carried may never come again (V3 retries no 4xx), so the app fetches instead what it missed.
 *
 * The signature is checked before parsing, so nothing unauthenticated is ever parsed. The 200 goes
 * out right after the route's synchronous, durable enqueue: processing happens later, so the
 * service's 10 s receipt window holds whatever the load.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createLogger } from '../log/logger.ts';
import { parseWebhookEvent } from '../api/webhook-events.ts';
import { parseV3WebhookEvent } from '../api/v3/webhook-events.ts';
import type { LiveEvent } from './live-event.ts';
import { verifyWebhookSignature } from './signature.ts';
import { verifyV3Webhook } from './v3-signature.ts';

const log = createLogger('webhooks');

export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;
/** Answers GET with 204 and LISTENER_ID_HEADER, so a tunnel probe knows it reached this listener. */
export const HEALTH_PATH = '/hooks/health';
export const LISTENER_ID_HEADER = 'x-parley-listener';
const SIGNATURE_HEADER = 'x-webhook-signature';

export type ReceiptOutcome = 'queued' | 'duplicate';

export interface WebhookRoute {
  /** The signing scheme and envelope of this path. Default 'v2'. */
  readonly version?: 'v2' | 'v3';
  /**
   * The secret deliveries on this path are signed with (read per delivery, so it may change); null
   * while there is none (a V3 subscription being recreated): every delivery is then refused 401.
   */
  readonly secret: string | null;
  /**
   * Records a verified, valid event durably before the 200 goes out (the answer waits for a returned
   * promise). Throwing or rejecting answers 500, so the service retries the delivery later.
   */
  receive(event: LiveEvent, body: Buffer): ReceiptOutcome | Promise<ReceiptOutcome>;
  /**
   * Told after a POST to this path was answered with an error (401, 400, 413, 500): an event it
   * carried may be lost (V3 never retries a 4xx), so whatever it was about is fetched instead.
   */
  refused?(refusal: { status: number; reason: string }): void;
}

export interface WebhookListenerOptions {
  /** Default 127.0.0.1: only a tunnel on this machine (or the embedded sandbox) may reach it. */
  host?: string;
  /** Default 0 (any free port); the `custom` tunnel needs a fixed one. */
  port?: number;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /** A request's headers must be complete this long after it starts (or the connection opens). Default 10 s. */
  headersTimeoutMs?: number;
  /** A request, body included, must be complete this long after it starts. Default 15 s. */
  requestTimeoutMs?: number;
}

export class WebhookListener {
  /** Random per process: tells this listener apart from anything else answering on a URL. */
  readonly id = randomBytes(16).toString('base64url');
  readonly #host: string;
  readonly #requestedPort: number;
  readonly #maxBodyBytes: number;
  readonly #headersTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #routes = new Map<string, WebhookRoute>();
  readonly #rejections = new RejectionLog();
  #server: Server | undefined;

  constructor(options: WebhookListenerOptions = {}) {
    this.#host = options.host ?? '127.0.0.1';
    this.#requestedPort = options.port ?? 0;
    this.#maxBodyBytes = options.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES;
    this.#headersTimeoutMs = options.headersTimeoutMs ?? 10_000;
    this.#requestTimeoutMs = Math.max(options.requestTimeoutMs ?? 15_000, this.#headersTimeoutMs);
  }

  /** Listens; resolves the port. Idempotent. */
  async start(): Promise<number> {
    if (this.#server) return this.port;
    // Slow or stalled senders (slowloris: headers or a body dribbled in, or a silent connection) are
    // answered 408 and closed. Node only looks for them every `connectionsCheckingInterval` (30 s by
    // default), so that check runs often enough for the timeouts to hold to within a fraction.
    const server = createServer(
      {
        headersTimeout: this.#headersTimeoutMs,
        requestTimeout: this.#requestTimeoutMs,
        connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(this.#headersTimeoutMs / 4))),
      },
      (req, res) => this.#handle(req, res),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#requestedPort, this.#host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    return this.port;
  }

  get port(): number {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('the webhook listener is not running');
    return address.port;
  }

  get running(): boolean {
    return this.#server?.listening ?? false;
  }

  /** The listener as seen from this machine, e.g. http://127.0.0.1:43121 (no trailing slash). */
  get localUrl(): string {
    const host = this.#host.includes(':') ? `[${this.#host}]` : this.#host;
    return `http://${host}:${this.port}`;
  }

  /** Serves `path` (exact match, no query) until the returned function is called. */
  addRoute(path: string, route: WebhookRoute): () => void {
    if (!path.startsWith('/hooks/') || path === HEALTH_PATH) throw new Error(`bad webhook path ${path}`);
    if (this.#routes.has(path)) throw new Error(`webhook path already served: ${path}`);
    this.#routes.set(path, route);
    return () => {
      if (this.#routes.get(path) === route) this.#routes.delete(path);
    };
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    if (path === HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return this.#reply(req, res, 405, 'method_not_allowed');
      res.writeHead(204, { [LISTENER_ID_HEADER]: this.id, 'cache-control': 'no-store' }).end();
      return;
    }
    const route = this.#routes.get(path);
    if (!route) return this.#reply(req, res, 404, 'not_found');
    if (req.method !== 'POST') return this.#reply(req, res, 405, 'method_not_allowed', { allow: 'POST' });
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > this.#maxBodyBytes) return this.#tooLarge(route, req, res);

    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > this.#maxBodyBytes) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        this.#tooLarge(route, req, res);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => this.#deliver(route, Buffer.concat(chunks, size), req, res);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => req.destroy());
  }

  #deliver(route: WebhookRoute, body: Buffer, req: IncomingMessage, res: ServerResponse): void {
    const refuse = (status: number, error: string, extra?: Record<string, string | number>): void =>
      this.#refuse(route, req, res, status, error, extra);
    const v3 = route.version === 'v3';
    const secret = route.secret;
    let signedId: string | undefined;
    if (v3) {
      const verdict = secret === null ? undefined : verifyV3Webhook(secret, body, req.headers);
      if (!verdict?.ok) {
        return refuse(401, 'invalid_signature', { detail: verdict ? verdict.reason : 'no_secret' });
      }
      signedId = verdict.id;
    } else if (secret === null || !verifyWebhookSignature(secret, body, req.headers[SIGNATURE_HEADER])) {
      return refuse(401, 'invalid_signature');
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return refuse(400, 'malformed_json');
    }
    let event: LiveEvent;
    try {
      event = v3 ? parseV3WebhookEvent(json) : parseWebhookEvent(json);
    } catch (error) {
      const detail = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
      return refuse(400, 'invalid_event', { detail });
    }
    if (signedId !== undefined && event.eventId !== signedId) {
      return refuse(400, 'event_id_mismatch');
    }
    const acknowledge = (outcome: ReceiptOutcome): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(outcome === 'duplicate' ? '{"received":true,"duplicate":true}' : '{"received":true}');
    };
    const notRecorded = (error: unknown): void => {
      log.error('could not record a webhook delivery; the service will retry', {
        eventId: event.eventId,
        error: error instanceof Error ? error.message : String(error),
      });
      refuse(500, 'not_recorded');
    };
    try {
      const outcome = route.receive(event, body);
      if (typeof outcome === 'string') acknowledge(outcome);
      else outcome.then(acknowledge, notRecorded);
    } catch (error) {
      notRecorded(error);
    }
  }

  /**
   * 413 without reading on: the request is paused and the connection closed after the answer, so an
   * oversized body is never buffered (and at most one chunk past the limit is ever read).
   */
  #tooLarge(route: WebhookRoute, req: IncomingMessage, res: ServerResponse): void {
    req.pause();
    this.#refuse(route, req, res, 413, 'body_too_large', { limit: this.#maxBodyBytes });
  }

  /** Answers a POST to a served path with an error, and tells its route (after the answer). */
  #refuse(
    route: WebhookRoute,
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    error: string,
    extra?: Record<string, string | number>,
  ): void {
    this.#reply(req, res, status, error, extra);
    try {
      route.refused?.({ status, reason: error });
    } catch (caught) {
      log.error('a refused delivery could not be reported', { error: String(caught) });
    }
  }

  #reply(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    error: string,
    extra: Record<string, string | number> = {},
  ): void {
    this.#rejections.note(status, error, req.url ?? '');
    const { allow, ...fields } = extra;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (allow !== undefined) headers.allow = String(allow);
    // A body we did not read to its end is not read at all: close instead of draining it.
    if (!req.complete) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(JSON.stringify({ error, ...fields }));
  }
}

/** Logs rejected requests at most once per reason per minute, so a flood cannot flood the log. */
class RejectionLog {
  readonly #last = new Map<string, { at: number; suppressed: number }>();

  note(status: number, reason: string, url: string): void {
    const key = `${status} ${reason}`;
    const now = Date.now();
    const entry = this.#last.get(key);
    if (entry && now - entry.at < 60_000) {
      entry.suppressed++;
      return;
    }
    // The path is a capability: log only its first segments.
    log.warn('webhook request rejected', {
      status,
      reason,
      path: url.split('/').slice(0, 3).join('/'),
      ...(entry?.suppressed ? { alsoSinceLastLine: entry.suppressed } : {}),
    });
    this.#last.set(key, { at: now, suppressed: 0 });
  }
}
