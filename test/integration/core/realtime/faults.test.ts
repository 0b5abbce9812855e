/**
 * The sandbox's webhook faults against a live workspace: duplicated and reordered deliveries
 * converge to the service's state, and deliveries that were not acknowledged (dropped, badly
 * signed, or answered 500 by the listener) come back and are applied exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { LiveEvent } from '../../../../electron/core/realtime/live-event.ts';
import { control, eventually, sandboxFor, service } from '../helpers.ts';
import {
  deliveries,
  type Delivery,
  fastRetries,
  type LiveWorkspace,
  openLiveWorkspace,
  webhooksIdle,
} from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let chat: Chat;
let customer: string;
/** Set by a test to make the listener fail to record (500) this event type, once. */
let failOnce: string | null = null;

beforeAll(async () => {
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  ws = await openLiveWorkspace(sandbox, {
    realtime: {
      beforeRecord(event: LiveEvent) {
        if (failOnce !== null && event.type === failOnce) {
          failOnce = null;
          throw new Error('simulated failure to record');
        }
      },
    },
  });
  await ws.firstPollDone;
  chat = ws.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

const store = () => ws.session.store;

async function customerSays(text: string): Promise<number> {
  const { data } = await control<{ data: { id: number } }>(sandbox, 'POST', '/inbound/message', {
    chat_id: chat.id,
    from: customer,
    text,
  });
  return data.id;
}

/** Every attempt the sandbox logged for one event type, in the order they finished. */
function attemptsFor(log: Delivery[], type: string): Delivery[] {
  return log.filter((d) => d.event_type === type);
}

/** The order in which deliveries were acknowledged (the log appends as each attempt finishes). */
const okIndex = (log: Delivery[], type: string) => log.findIndex((d) => d.ok && d.event_type === type);

describe('webhook faults', () => {
  it('duplicated deliveries are applied once each', async () => {
    await control(sandbox, 'DELETE', '/deliveries');
    await control(sandbox, 'POST', '/webhook-faults', {
      kind: 'duplicate',
      event_type: 'message.received',
      times: 3,
    });
    const ids = [
      await customerSays('dup one'),
      await customerSays('dup two'),
      await customerSays('dup three'),
    ];
    await webhooksIdle(sandbox);
    await eventually(() => ids.every((id) => store().messages.byId(id)), 'all three applied');
    const received = attemptsFor(await deliveries(sandbox), 'message.received').filter((d) => d.ok);
    expect(received).toHaveLength(6); // each event delivered twice, both acknowledged
    expect(new Set(received.map((d) => d.event_id)).size).toBe(3);
    const texts = store()
      .messages.page(chat.id, { limit: 50 })
      .map((m) => m.text)
      .filter((t) => t.startsWith('dup '));
    expect(texts).toEqual(['dup one', 'dup two', 'dup three']);
  });

  it('reordered deliveries end in the service state: contact created/updated, typing on/off, read before sent', async () => {
    await control(sandbox, 'DELETE', '/deliveries');
    // A held delivery goes out right after the next one to the same subscription (or after delay_ms).
    const hold = (eventType: string) =>
      control(sandbox, 'POST', '/webhook-faults', {
        kind: 'reorder',
        event_type: eventType,
        delay_ms: 600_000,
        times: 1,
      });

    await hold('contact.created');
    const contact = await ws.session.client.contacts.create({ firstName: 'Iris', lastName: 'First' });
    await ws.session.client.contacts.update(contact.id, { lastName: 'Second' });

    await hold('typing_indicator.received');
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: true });
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: false });

    await hold('message.sent');
    const { message } = await ws.session.client.messages.send(chat.id, {
      text: 'read before it was sent',
      idempotencyKey: `reorder-${Date.now()}`,
    });
    await control(sandbox, 'POST', '/inbound/read', { chat_id: chat.id, message_ids: [message.id] });

    await webhooksIdle(sandbox);
    const log = await deliveries(sandbox);
    // The faults really reversed each pair.
    expect(okIndex(log, 'contact.created')).toBeGreaterThan(okIndex(log, 'contact.updated'));
    expect(okIndex(log, 'typing_indicator.received')).toBeGreaterThan(
      okIndex(log, 'typing_indicator.removed'),
    );
    expect(okIndex(log, 'message.sent')).toBeGreaterThan(okIndex(log, 'message.read'));

    await eventually(() => store().messages.byId(message.id), 'message.sent applied');
    const remote = await service<{ data: { last_name: string } }>(sandbox, `/contacts/${contact.id}`);
    expect(store().contacts.get(contact.id)?.lastName).toBe(remote.data.last_name);
    expect(remote.data.last_name).toBe('Second');
    const typing = await control<{ customers_typing: string[] }>(sandbox, 'GET', `/chats/${chat.id}`);
    expect(store().typing.of(chat.id)).toEqual(typing.customers_typing);
    expect(typing.customers_typing).toEqual([]);
    const { data: remoteMessage } = await service<{ data: { is_read: boolean } }>(
      sandbox,
      `/chats/${chat.id}/chat_messages/${message.id}`,
    );
    expect(store().messages.byId(message.id)?.isRead).toBe(remoteMessage.is_read);
    expect(remoteMessage.is_read).toBe(true);
  });

  it.each([
    ['dropped by the network', { kind: 'drop' }],
    ['signed badly', { kind: 'bad_signature' }],
  ])('a delivery %s is retried by the service and applied once', async (_name, fault) => {
    await control(sandbox, 'DELETE', '/deliveries');
    await control(sandbox, 'POST', '/webhook-faults', { ...fault, event_type: 'message.received', times: 1 });
    const id = await customerSays(`retried after ${fault.kind}`);
    await eventually(() => store().messages.byId(id), 'applied after the retry');
    await webhooksIdle(sandbox);
    const attempts = attemptsFor(await deliveries(sandbox), 'message.received');
    expect(attempts.map((a) => [a.attempt, a.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    if (fault.kind === 'bad_signature') expect(attempts[0]?.status_code).toBe(401);
    else expect(attempts[0]).toMatchObject({ status_code: null, fault: 'drop' });
    expect(
      store()
        .messages.page(chat.id, { limit: 50 })
        .filter((m) => m.id === id),
    ).toHaveLength(1);
  });

  it('a delivery the listener fails to record (500) is retried and applied once', async () => {
    await control(sandbox, 'DELETE', '/deliveries');
    failOnce = 'message.received';
    const id = await customerSays('after a 500');
    await eventually(() => store().messages.byId(id), 'applied after the retry');
    await webhooksIdle(sandbox);
    const attempts = attemptsFor(await deliveries(sandbox), 'message.received');
    expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(failOnce).toBeNull();
    expect(
      store()
        .messages.page(chat.id, { limit: 50 })
        .filter((m) => m.text === 'after a 500'),
    ).toHaveLength(1);
  });
});
