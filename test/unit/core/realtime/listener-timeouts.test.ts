// Slow or stalled clients (slowloris) on raw sockets: the listener answers 408 and closes them once
// its header or request timeout has passed, and keeps serving genuine deliveries meanwhile.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookListener } from '../../../../electron/core/realtime/listener.ts';
import { signV2Delivery } from '../../../webhook-signing.ts';
import type { LiveEvent } from '../../../../electron/core/realtime/live-event.ts';

const SECRET = 'whsec_unit_slow_clients';
const PATH = '/hooks/ws1/slowClients_-';

let listener: WebhookListener;
const received: LiveEvent[] = [];

beforeAll(async () => {
  listener = new WebhookListener({ headersTimeoutMs: 400, requestTimeoutMs: 800 });
  await listener.start();
  listener.addRoute(PATH, {
    secret: SECRET,
    receive(event) {
      received.push(event);
      return 'queued';
    },
  });
});
afterAll(() => listener.stop());

interface RawClient {
  socket: Socket;
  /** Everything the listener wrote back. */
  answer(): string;
  /** Resolves when the listener closed the connection. */
  closed: Promise<void>;
  /** Writes `text` one byte at a time, a byte per `everyMs`, until the connection closes. */
  dribble(text: string, everyMs: number): void;
}

async function rawClient(): Promise<RawClient> {
  const socket = connect(listener.port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    answer: () => answer,
    closed,
    dribble(text, everyMs) {
      let at = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
        socket.write(text[at % text.length] as string);
        at++;
      }, everyMs);
      void closed.then(() => clearInterval(timer));
    },
  };
}

function envelope(id: string): string {
  return JSON.stringify({
    api_version: 'v2',
    event_type: 'message.read',
    event_id: id,
    created_at: '2026-01-01T00:00:00.000Z',
    data: { id: '5', chat_id: '7', read_at: '2026-01-01T00:00:00.000Z' },
  });
}

function deliver(id: string): Promise<number> {
  const body = envelope(id);
  return new Promise((resolve, reject) => {
    const req = request(
      `${listener.localUrl}${PATH}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signV2Delivery(SECRET, body) },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('WebhookListener against slow clients', () => {
  it('given a client that connects and sends nothing, closes it with 408 after the header timeout', async () => {
    const client = await rawClient();

    await client.closed;

    expect(client.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('given headers sent a byte at a time, closes the connection and still serves a genuine delivery', async () => {
    const client = await rawClient();
    client.dribble(`POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(10_000)}`, 20);

    const status = await deliver('evt-while-headers-dribble');
    await client.closed;

    expect(status).toBe(200);
    expect(received.map((e) => e.eventId)).toContain('evt-while-headers-dribble');
    expect(client.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('given a body sent a byte at a time, closes the connection without recording anything', async () => {
    const before = received.length;
    const body = envelope('evt-slow-body');
    const client = await rawClient();
    client.socket.write(
      `POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `X-Webhook-Signature: ${signV2Delivery(SECRET, body)}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    client.dribble(body, 20);

    const status = await deliver('evt-while-body-dribble');
    await client.closed;

    expect(status).toBe(200);
    expect(client.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(received.slice(before).map((e) => e.eventId)).toEqual(['evt-while-body-dribble']);
  });
});
