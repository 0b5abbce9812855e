/**
 * A conversation's order is the service's, whatever order its V2 deliveries arrive in. V2 webhook
 * data dates a message to the second; a read of the chat gives the service's millisecond time. So a
 * burst within one second (more than a page of the chat), delivered out of order, duplicated and retried around a read of the chat
 * (the open chat's poll), must end in the order the service lists — never in arrival order, and a
 * late delivery must never take back the millisecond time a read stored.
 *
 * The arrival order is fixed by the test: the sandbox's own deliveries of customer messages are
 * held back (dropped, their retries an hour away), and the test posts the same events, signed with
 * the workspace's secret, in the order below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { webhookTime } from '../../../../sandbox/domain/time.ts';
import { control, eventually, sandboxFor, service } from '../helpers.ts';
import { type LiveWorkspace, openLiveWorkspace, post, signedDelivery } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let chat: Chat;
let customer: string;

beforeAll(async () => {
  sandbox = await sandboxFor();
  ws = await openLiveWorkspace(sandbox);
  await ws.firstPollDone;
  // Going live polls the inbox once more (catching up); after it, only deliveries and the reads
  // they lead to change the store (SLOW_POLLING: the next poll is a minute away).
  await eventually(() => ws.liveCalls.includes(true), 'live events');
  const before = ws.session.sync.status.lastSyncedAt;
  await eventually(() => ws.session.sync.status.lastSyncedAt !== before, 'the catch-up poll');
  chat = ws.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  await control(sandbox, 'PUT', '/config', { webhook_retry_base_ms: 3_600_000 });
  await control(sandbox, 'POST', '/webhook-faults', { kind: 'drop', event_type: 'message.received' });
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

interface ServiceMessage {
  id: number;
  text: string;
  sent_at: string;
}

/** The customer texts `text`; returns the message as the service's REST API states it. */
async function customerSays(text: string): Promise<ServiceMessage> {
  const { data } = await control<{ data: ServiceMessage }>(sandbox, 'POST', '/inbound/message', {
    chat_id: chat.id,
    from: customer,
    text,
  });
  return data;
}

/** The message.received delivery the service would post for `message` (its time to the second). */
function delivery(message: ServiceMessage) {
  return signedDelivery(secret, {
    type: 'message.received',
    eventId: `order-${message.id}`,
    createdAt: message.sent_at,
    data: {
      id: String(message.id),
      chat_id: String(chat.id),
      text: message.text,
      sent_at: webhookTime(Date.parse(message.sent_at)),
      is_read: false,
      from_phone: customer,
      service: chat.service,
      reaction_id: null,
      chat_handles: chat.handles.map((h) => ({ identifier: h.identifier, display_name: '', is_me: h.isMe })),
      attachments: [],
    },
  });
}
let secret: string;

async function deliver(messages: readonly ServiceMessage[]): Promise<void> {
  for (const message of messages) {
    const { body, headers } = delivery(message);
    expect(await post(ws.realtime.localWebhookUrl as string, body, headers)).toBe(200);
  }
  await eventually(
    () => messages.every((m) => ws.session.store.messages.byId(m.id)),
    'the deliveries applied',
  );
}

/** The texts of this burst, in the order the store shows them. */
function storedOrder(prefix: string): string[] {
  return ws.session.store.messages
    .page(chat.id, { limit: 200 })
    .map((m) => m.text)
    .filter((t) => t.startsWith(prefix));
}

/** The texts of this burst, in the order the service lists them. */
async function serviceOrder(prefix: string): Promise<string[]> {
  const { data } = await service<{ data: ServiceMessage[] }>(
    sandbox,
    `/chats/${chat.id}/chat_messages?sort=desc&per_page=100`,
  );
  return data
    .map((m) => m.text)
    .filter((t) => t.startsWith(prefix))
    .reverse();
}

/** Waits for the start of a wall-clock second, so a short burst falls within one. */
async function startOfASecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
}

describe('order under webhook faults (V2)', () => {
  it('a burst within one second, delivered reordered, duplicated and late around a read, ends in the service order', async () => {
    secret = await ws.secret();
    const prefix = `burst ${Date.now()} `;
    const text = (n: number) => `${prefix}${String(n).padStart(2, '0')}`;

    // Given the customer texts six messages within one second…
    await startOfASecond();
    const first: ServiceMessage[] = [];
    for (let n = 1; n <= 6; n++) first.push(await customerSays(text(n)));
    const [m1, m2, m3, m4, m5, m6] = first as [ServiceMessage, ...ServiceMessage[]];
    // …whose deliveries arrive swapped in pairs, one twice, and the third not yet (dropped)
    await deliver([m2!, m1, m4!, m6!, m5!, m5!]);

    // When the chat is read (as the open chat's poll reads it), then sixty more (more than a page) come
    // in the same second, delivered newest first, and the third message's retry arrives last
    await ws.session.sync.refreshChat(chat.id);
    expect(ws.session.store.messages.byId(m3!.id)?.sentAt).toBe(Date.parse(m3!.sent_at));
    const second: ServiceMessage[] = [];
    for (let n = 7; n <= 66; n++) second.push(await customerSays(text(n)));
    // (On a quiet machine the whole burst falls within one second, where arrival order and the
    // service's differ most; on a busy one it may spill into the next: the order must hold either way.)
    await deliver([...second].reverse());
    await deliver([m3!]);

    // Then the late delivery did not take back the time the read stored for the third message
    expect(ws.session.store.messages.byId(m3!.id)?.sentAt).toBe(Date.parse(m3!.sent_at));
    // And the conversation settles in the order the service lists, each message once
    const expected = await serviceOrder(prefix);
    expect(expected).toEqual(Array.from({ length: 66 }, (_, i) => text(i + 1)));
    await eventually(
      () => JSON.stringify(storedOrder(prefix)) === JSON.stringify(expected),
      'the stored order to be the service order',
      10_000,
    ).catch(() => undefined);
    expect(storedOrder(prefix)).toEqual(expected);
    // And every message carries the service's millisecond time
    for (const message of [...first, ...second])
      expect(ws.session.store.messages.byId(message.id)?.sentAt).toBe(Date.parse(message.sent_at));
  });
});
