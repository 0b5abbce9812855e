// The listener's gatekeeping, request by request, with a recording route standing in for the inbox.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookListener, type ReceiptOutcome } from '../../../../electron/core/realtime/listener.ts';
import { signV2Delivery } from '../../../webhook-signing.ts';
import type { LiveEvent } from '../../../../electron/core/realtime/live-event.ts';

const SECRET = 'whsec_unit_listener';
const PATH = '/hooks/ws1/abcDEF123_-';
const LIMIT = 64 * 1024;

let listener: WebhookListener;
let received: LiveEvent[] = [];
let outcome: ReceiptOutcome | Error = 'queued';
let refusals: Array<{ status: number; reason: string }> = [];

beforeAll(async () => {
  listener = new WebhookListener({ maxBodyBytes: LIMIT });
  await listener.start();
  listener.addRoute(PATH, {
    secret: SECRET,
    receive(event) {
      if (outcome instanceof Error) throw outcome;
      received.push(event);
      return outcome;
    },
    refused(refusal) {
      refusals.push(refusal);
    },
  });
});
afterAll(() => listener.stop());
beforeEach(() => {
  received = [];
  outcome = 'queued';
  refusals = [];
});

function envelope(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    api_version: 'v2',
    event_type: 'message.read',
    event_id: 'evt-1',
    created_at: '2026-01-01T00:00:00.000Z',
    data: { id: '5', chat_id: '7', read_at: '2026-01-01T00:00:00.000Z' },
    ...overrides,
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${listener.localUrl}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const signed = (body: string, secret = SECRET) => ({
  'content-type': 'application/json',
  'x-webhook-signature': signV2Delivery(secret, body),
});

describe('WebhookListener', () => {
  it('accepts a signed, valid delivery and hands the parsed event to the route', async () => {
    const body = envelope();
    const answer = await send('POST', PATH, body, signed(body));
    expect(answer.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      type: 'message.read',
      eventId: 'evt-1',
      data: { id: 5, chat_id: 7 },
    });
  });

  it('answers 200 for a duplicate too (the service must stop retrying)', async () => {
    outcome = 'duplicate';
    const body = envelope();
    const answer = await send('POST', PATH, body, signed(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: true, duplicate: true });
  });

  it.each([
    ['unsigned', () => ({ 'content-type': 'application/json' }), (b: string) => b],
    ['signed with another secret', (b: string) => signed(b, 'whsec_forged'), (b: string) => b],
    ['changed after signing', (b: string) => signed(b), (b: string) => b.replace('"evt-1"', '"evt-2"')],
    ['a malformed header', () => ({ 'x-webhook-signature': 'sha256=not-hex' }), (b: string) => b],
    [
      'an unprefixed digest',
      (b: string) => ({ 'x-webhook-signature': signV2Delivery(SECRET, b).slice(7) }),
      (b: string) => b,
    ],
  ])('rejects a delivery %s with 401 and records nothing', async (_name, headersFor, tamper) => {
    const body = envelope();
    const answer = await send('POST', PATH, tamper(body), headersFor(body));
    expect(answer.status).toBe(401);
    expect(received).toEqual([]);
  });

  it('rejects signed but malformed JSON, and a signed envelope that fails validation, with 400', async () => {
    for (const body of [
      '{"api_version":"v2",',
      JSON.stringify({ api_version: 'v2', event_type: 'message.read' }),
      envelope({ api_version: 'v9' }),
      envelope({ data: { id: 'not-a-number', chat_id: '7' } }),
    ]) {
      const answer = await send('POST', PATH, body, signed(body));
      expect(answer.status, body).toBe(400);
    }
    expect(received).toEqual([]);
  });

  it('answers 404 for an unknown path and 405 for another method, without reading a body', async () => {
    const body = envelope();
    expect((await send('POST', '/hooks/ws1/wrong-marker', body, signed(body))).status).toBe(404);
    expect((await send('POST', '/', body, signed(body))).status).toBe(404);
    const wrongMethod = await send('GET', PATH);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect((await send('PUT', PATH, body, signed(body))).status).toBe(405);
    expect(received).toEqual([]);
  });

  it('answers 500 when the route cannot record the delivery, so the service retries', async () => {
    outcome = new Error('disk full');
    const body = envelope();
    expect((await send('POST', PATH, body, signed(body))).status).toBe(500);
  });

  it('refuses a body declared too large with 413 before reading any of it', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request(`${listener.localUrl}${PATH}`, {
        method: 'POST',
        headers: { 'content-length': String(LIMIT * 4), 'content-type': 'application/json' },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.flushHeaders(); // headers only: the answer must come without a single body byte
    });
    expect(answer).toBe(413);
  });

  it('cuts off an undeclared (chunked) body once it passes the limit, and closes the connection', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = request(`${listener.localUrl}${PATH}`, {
        method: 'POST',
        headers: { 'transfer-encoding': 'chunked', 'x-webhook-signature': 'sha256=00' },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }));
      });
      req.on('error', (error) => (sent > LIMIT ? undefined : reject(error)));
      // Keep writing until the server answers: a buffering server would let all 64 chunks through.
      const pump = (): void => {
        if (sent >= 64 * chunk.length) return void req.end();
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(pump);
        else req.once('drain', pump);
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(received).toEqual([]);
  });

  it('tells the route of every delivery it refused (its event may be lost), and of nothing else', async () => {
    const valid = envelope();
    await send('POST', PATH, valid, signed(valid, 'not-the-secret'));
    await send('POST', PATH, '{oops', signed('{oops'));
    outcome = new Error('disk full');
    await send('POST', PATH, valid, signed(valid));
    outcome = 'queued';
    await send('POST', PATH, valid, signed(valid));
    await send('GET', PATH);
    await send('POST', '/hooks/ws1/elsewhere', valid, signed(valid));
    expect(refusals).toEqual([
      { status: 401, reason: 'invalid_signature' },
      { status: 400, reason: 'malformed_json' },
      { status: 500, reason: 'not_recorded' },
    ]);
  });

  it('answers the health probe with its id', async () => {
    const answer = await send('GET', '/hooks/health');
    expect(answer.status).toBe(204);
    expect(answer.headers['x-parley-listener']).toBe(listener.id);
  });
});
