/**
 * V3 deliveries from the sandbox to a real local receiver: Standard Webhooks signatures verified over
 * the raw bytes, envelopes and event data parsed, and mapped to the domain (incl. a failed send).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';
import {
  v3FailedEventToDomain,
  type V3LocalIds,
  v3MessageEventToDomain,
} from '../../../../../electron/core/api/v3/domain-map.ts';
import { verifyV3Webhook } from '../../../../../electron/core/realtime/v3-signature.ts';
import {
  parseV3WebhookEvent,
  type V3WebhookEvent,
} from '../../../../../electron/core/api/v3/webhook-events.ts';
import { firstLineV3, freshCustomer, startTestSandbox, type TestSandbox, v3TestClient } from './helpers.ts';

interface Delivery {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

let sandbox: TestSandbox;
let api: PartnerApiV3Client;
let line: string;
let receiver: Server;
let secret: string;
const deliveries: Delivery[] = [];
const waiters: Array<() => void> = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = v3TestClient(sandbox).api;
  line = await firstLineV3(api);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const subscription = await api.webhooks.create({
    targetUrl: `http://127.0.0.1:${port}/hooks?version=2026-02-03`,
    events: ['message.sent', 'message.delivered', 'message.failed'],
  });
  secret = subscription.signing_secret;
});

afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Verified and parsed deliveries, until one matches (waits on arrivals, not on timers). */
async function eventMatching(match: (event: V3WebhookEvent) => boolean): Promise<V3WebhookEvent> {
  for (let seen = 0; ;) {
    while (seen < deliveries.length) {
      const delivery = deliveries[seen++] as Delivery;
      const verdict = verifyV3Webhook(secret, delivery.body, delivery.headers);
      expect(verdict).toMatchObject({ ok: true });
      const event = parseV3WebhookEvent(JSON.parse(delivery.body.toString('utf8')));
      expect(delivery.headers['webhook-id']).toBe(event.eventId);
      if (match(event)) return event;
    }
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
}

function localIds(): V3LocalIds {
  const maps = new Map<string, Map<string, number>>();
  const next = (kind: string) => (key: string) => {
    const map = maps.get(kind) ?? new Map<string, number>();
    maps.set(kind, map);
    if (!map.has(key)) map.set(key, map.size + 1);
    return map.get(key) as number;
  };
  return {
    chat: next('chat'),
    message: next('message'),
    handle: next('handle'),
    reaction: next('reaction'),
    line: next('line'),
  };
}

describe('V3 webhook deliveries', () => {
  it('a sent message arrives as a signed message.sent carrying the request trace id and the idempotency key', async () => {
    const { chat } = await api.chats.create({
      from: line,
      to: [await freshCustomer(sandbox)],
      message: { parts: [{ type: 'text', value: 'Opening' }] },
    });
    const key = `evt-${chat.id.slice(0, 8)}`;
    const sent = await api.messages.send(chat.id, {
      parts: [{ type: 'text', value: 'Tracked' }],
      idempotencyKey: key,
    });
    const event = await eventMatching((e) => e.type === 'message.sent' && e.data.id === sent.message.id);
    if (event.type !== 'message.sent') throw new Error(event.type);
    expect(event.data).toMatchObject({ direction: 'outbound', chatId: chat.id, idempotency_key: key });
    expect(sent.traceId).toBeTruthy();
    expect(event.traceId).toBe(sent.traceId);
    const message = v3MessageEventToDomain(event.type, event.data, localIds());
    expect(message).toMatchObject({ key, text: 'Tracked', fromMe: true, state: 'sent', apiVersion: 'v3' });
  });

  it('a send the service fails arrives as message.failed with its code, shown with the failure table', async () => {
    const { chat } = await api.chats.create({
      from: line,
      to: [await freshCustomer(sandbox)],
      message: { parts: [{ type: 'text', value: 'Opening' }] },
    });
    await sandbox.control.call('POST', '/send-failures', { code: 4001, times: 1 });
    const sent = await api.messages.send(chat.id, {
      parts: [{ type: 'text', value: 'Will fail' }],
      idempotencyKey: `f-${chat.id.slice(0, 8)}`,
    });
    const event = await eventMatching(
      (e) => e.type === 'message.failed' && e.data.message_id === sent.message.id,
    );
    if (event.type !== 'message.failed') throw new Error(event.type);
    const failed = v3FailedEventToDomain(event.data, localIds());
    expect(failed).toMatchObject({
      v3Id: sent.message.id,
      failure: { code: '4001' },
      error: { code: '4001', message: 'Delivery failed — send again', retryable: true },
    });
    expect((await api.messages.get(sent.message.id)).delivery_status).toBe('failed');
  });

  it('a delivery whose body was changed in transit fails verification', async () => {
    const delivery = deliveries[0] as Delivery;
    const tampered = Buffer.from(delivery.body.toString('utf8').replace('"v3"', '"v2"'));
    expect(verifyV3Webhook(secret, tampered, delivery.headers)).toEqual({ ok: false, reason: 'no_match' });
  });
});
