/**
 * Servers the sandbox contract tests run on 127.0.0.1 with node:http: a webhook receiver that
 * records every delivery and answers as told, and a file server for attachment_urls.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually.ts';
import type { Json } from './http-clients.ts';

// ---------------------------------------------------------------------------------------------
// Webhook receiver

export interface ReceivedDelivery {
  /** The raw bytes exactly as received. */
  raw: Buffer;
  json: Json;
  headers: IncomingHttpHeaders;
  path: string;
  /** Order of arrival (0, 1, …). */
  seq: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: ReceivedDelivery[];
  /** Answers for the next requests, in order; afterwards the default. */
  queue(...replies: Reply[]): void;
  setDefault(reply: Reply): void;
  /** Deliveries whose JSON matches. */
  matching(predicate: (event: Json, delivery: ReceivedDelivery) => boolean): ReceivedDelivery[];
  /** Waits for a delivery whose JSON matches (bounded). */
  waitFor(
    predicate: (event: Json, delivery: ReceivedDelivery) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery>;
  /** Waits until at least `count` deliveries match (bounded). */
  waitForCount(
    predicate: (event: Json) => boolean,
    count: number,
    what: string,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
  clear(): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const planned: Reply[] = [];
  let fallback: Reply = { status: 200 };
  let seq = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      deliveries.push({ raw, json, headers: req.headers, path: req.url ?? '/', seq: seq++ });
      const reply = planned.shift() ?? fallback;
      const answer = () => {
        if (!res.writableEnded && !res.destroyed)
          res.writeHead(reply.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  const url = await listen(server);
  const matching = (predicate: (event: Json, delivery: ReceivedDelivery) => boolean) =>
    deliveries.filter((d) => d.json !== undefined && predicate(d.json, d));
  return {
    url: `${url}/hooks`,
    deliveries,
    queue: (...replies) => planned.push(...replies),
    setDefault(reply) {
      fallback = reply;
    },
    matching,
    waitFor: (predicate, what, timeoutMs = 5_000) =>
      eventually(() => matching(predicate)[0], what, timeoutMs),
    waitForCount: (predicate, count, what, timeoutMs = 5_000) =>
      eventually(
        () => {
          const found = matching(predicate);
          return found.length >= count ? found : undefined;
        },
        what,
        timeoutMs,
      ),
    clear() {
      deliveries.length = 0;
      planned.length = 0;
    },
    close: () => closeServer(server),
  };
}

// ---------------------------------------------------------------------------------------------
// File server (for attachment_urls)

export interface FileServer {
  readonly url: string;
  serve(path: string, data: Buffer, contentType: string): string;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const server = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) })
      .end(file.data);
  });
  const url = await listen(server);
  return {
    url,
    serve(path, data, contentType) {
      files.set(path, { data, contentType });
      return `${url}${path}`;
    },
    close: () => closeServer(server),
  };
}
