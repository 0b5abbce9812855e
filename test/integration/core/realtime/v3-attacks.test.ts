/**
 * Hand-made requests against a V3 workspace's listener: forged, tampered, replayed, stale, future,
 * V2-signed, oversized, malformed. Each is refused (a replay: acknowledged and ignored) and nothing
 * reaches the store. "Nothing" is checked after a legitimate sentinel sent behind the attack has been
 * applied: the inbox is first-in first-out, so anything the attack had queued would be applied first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { signV2Delivery, signV3Delivery } from '../../../webhook-signing.ts';
import { eventually, sandboxFor } from '../helpers.ts';
import { type LiveWorkspace, openLiveWorkspace, post, signedV3Delivery } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let secret: string;
let url: string;
let chat: Chat;

beforeAll(async () => {
  sandbox = await sandboxFor();
  ws = await openLiveWorkspace(sandbox, { apiVersion: 'v3' });
  await ws.firstPollDone;
  secret = await ws.secret();
  expect(secret).toMatch(/^whsec_/);
  url = ws.realtime.localWebhookUrl as string;
  chat = ws.session.store.chats.list().find((c) => !c.isGroup && c.v3ChatId) as Chat;
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

/** A customer message in `chat`, as V3 message.received data. */
function incoming(messageId: string, text: string) {
  const line = ws.session.store.lines.get(chat.lineId)?.phoneNumber as string;
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  return {
    type: 'message.received',
    data: {
      id: messageId,
      message_id: messageId,
      chat: { id: chat.v3ChatId, is_group: false, owner_handle: line, health_status: null },
      direction: 'inbound',
      sender_handle: customer,
      parts: [{ type: 'text', value: text }],
      sent_at: new Date().toISOString(),
      delivered_at: null,
      read_at: null,
      service: chat.service,
    },
  };
}

const stored = (messageId: string) => {
  const id = ws.session.store.remoteIds.find('message', messageId);
  return id === undefined ? undefined : ws.session.store.messages.byId(id);
};

/** Delivers a valid event and waits until the store has it: everything queued before it is applied too. */
async function sentinel(): Promise<void> {
  const id = randomUUID();
  const { body, headers } = signedV3Delivery(secret, incoming(id, `sentinel ${id}`));
  expect(await post(url, body, headers)).toBe(200);
  await eventually(() => stored(id), 'the sentinel applied');
}

describe('the V3 listener under attack', () => {
  it('refuses a wrong secret, a body changed after signing and missing headers (401); none is applied', async () => {
    const wrong = randomUUID();
    const forged = signedV3Delivery(`whsec_${randomBytes(24).toString('base64')}`, incoming(wrong, 'forged'));
    expect(await post(url, forged.body, forged.headers)).toBe(401);

    const tampered = randomUUID();
    const signed = signedV3Delivery(secret, incoming(tampered, 'original'));
    expect(await post(url, signed.body.replace('original', 'tampered'), signed.headers)).toBe(401);

    const unsigned = randomUUID();
    const plain = signedV3Delivery(secret, incoming(unsigned, 'unsigned'));
    const { 'webhook-signature': _dropped, ...withoutSignature } = plain.headers;
    expect(await post(url, plain.body, withoutSignature)).toBe(401);

    await sentinel();
    for (const id of [wrong, tampered, unsigned]) expect(stored(id)).toBeUndefined();
  });

  it('refuses a timestamp more than 5 minutes old or ahead (401), though correctly signed', async () => {
    const stale = randomUUID();
    const old = signedV3Delivery(secret, { ...incoming(stale, 'stale'), nowMs: Date.now() - 6 * 60_000 });
    expect(await post(url, old.body, old.headers)).toBe(401);
    const future = randomUUID();
    const ahead = signedV3Delivery(secret, { ...incoming(future, 'future'), nowMs: Date.now() + 6 * 60_000 });
    expect(await post(url, ahead.body, ahead.headers)).toBe(401);
    await sentinel();
    expect(stored(stale)).toBeUndefined();
    expect(stored(future)).toBeUndefined();
  });

  it('refuses a V2-signed delivery on the V3 path (401): each version is verified by its own scheme', async () => {
    const id = randomUUID();
    const v3 = signedV3Delivery(secret, incoming(id, 'v2-signed'));
    const v2Headers = {
      'content-type': 'application/json',
      'x-webhook-signature': signV2Delivery(secret, v3.body),
    };
    expect(await post(url, v3.body, v2Headers)).toBe(401);
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });

  it('accepts a header with several signatures when one matches (a secret being rotated)', async () => {
    const id = randomUUID();
    const { body, headers } = signedV3Delivery(secret, incoming(id, 'rotating'));
    const other = `v1,${randomBytes(32).toString('base64')}`;
    const both = { ...headers, 'webhook-signature': `${other} ${headers['webhook-signature']}` };
    expect(await post(url, body, both)).toBe(200);
    await eventually(() => stored(id), 'applied');
  });

  it('acknowledges a replay of the same webhook-id (200) and applies it once', async () => {
    const id = randomUUID();
    const first = signedV3Delivery(secret, incoming(id, 'once'));
    expect(await post(url, first.body, first.headers)).toBe(200);
    await eventually(() => stored(id), 'applied');
    const again = signedV3Delivery(secret, { ...incoming(id, 'twice'), eventId: first.eventId });
    const response = await fetch(url, { method: 'POST', body: again.body, headers: again.headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: true });
    await sentinel();
    expect(stored(id)?.text).toBe('once');
  });

  it('refuses a body whose event_id is not the signed webhook-id (400)', async () => {
    const id = randomUUID();
    const { body } = signedV3Delivery(secret, incoming(id, 'mismatched'));
    // Correctly signed, but under another id than the one the body names: dedupe could be dodged.
    expect(
      await post(url, body, {
        'content-type': 'application/json',
        ...signV3Delivery(secret, randomUUID(), body),
      }),
    ).toBe(400);
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });

  it('refuses malformed JSON and invalid data (400), and an oversized body (413)', async () => {
    const broken = '{"api_version":"v3",';
    expect(await post(url, broken, signV3Delivery(secret, randomUUID(), broken))).toBe(400);
    const id = randomUUID();
    const invalid = signedV3Delivery(secret, {
      type: 'message.received',
      data: { id, direction: 'inbound' },
    });
    expect(await post(url, invalid.body, invalid.headers)).toBe(400);
    const huge = 'x'.repeat(1024 * 1024 + 1);
    expect(await post(url, huge, signV3Delivery(secret, randomUUID(), huge))).toBe(413);
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });

  it('acknowledges an unknown event type (200) and changes nothing', async () => {
    const before = ws.session.store.chats.get(chat.id);
    const unknown = signedV3Delivery(secret, {
      type: 'chat.background_changed',
      data: { chat_id: chat.v3ChatId },
    });
    expect(await post(url, unknown.body, unknown.headers)).toBe(200);
    await sentinel();
    expect(ws.session.store.chats.get(chat.id)?.displayName).toBe(before?.displayName);
  });
});
