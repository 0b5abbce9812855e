/**
 * End to end: the sandbox delivers every V2 event type to the listener (direct tunnel), and the
 * store changes as it should. Polling is set to once a minute, so within these tests only a
 * webhook can explain a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { V2_EVENT_TYPES } from '../../../../electron/core/api/webhook-events.ts';
import { control, eventually, sandboxFor, service } from '../helpers.ts';
import { deliveries, type LiveWorkspace, openLiveWorkspace } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let direct: Chat;
let group: Chat;
let customer: string;

beforeAll(async () => {
  sandbox = await sandboxFor();
  ws = await openLiveWorkspace(sandbox);
  const chats = ws.session.store.chats.list();
  direct = chats.find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  group = chats.find((c) => c.isGroup) as Chat;
  if (!direct || !group) throw new Error('the demo seed lacks a direct iMessage chat or a group');
  customer = direct.handles.find((h) => !h.isMe)?.identifier as string;
  // This customer acts only when told to: no simulated read receipts or replies racing the test.
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

const store = () => ws.session.store;
const messageWith = (chatId: number, text: string) =>
  store()
    .messages.page(chatId, { limit: 20 })
    .find((m) => m.text === text);

describe('live events against the sandbox', () => {
  it('comes up live: one active, signed subscription points at the listener, polling slows down', async () => {
    expect(ws.realtime.status).toEqual({ state: 'live', reason: null });
    expect(ws.liveCalls.at(-1)).toBe(true);
    const { webhook_subscriptions: subs } = await service<{
      webhook_subscriptions: Array<{
        webhook_url: string;
        active: boolean;
        secret_configured: boolean;
        events: string[];
      }>;
    }>(sandbox, '/webhook_subscriptions');
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      webhook_url: ws.realtime.webhookUrl,
      active: true,
      secret_configured: true,
    });
    expect([...(subs[0]?.events ?? [])].sort()).toEqual([...V2_EVENT_TYPES].sort());
  });

  it('a customer reply is in the store before the next poll could have fetched it', async () => {
    await ws.firstPollDone;
    const lastPoll = ws.session.sync.status.lastSyncedAt;
    const text = `Reply ${Date.now()}`;
    await control(sandbox, 'POST', '/inbound/message', { chat_id: direct.id, from: customer, text });
    const reply = await eventually(() => messageWith(direct.id, text), 'the reply in the store', 10_000);
    expect(reply.fromMe).toBe(false);
    // No inbox poll ran in between (the next is a minute away): the webhook brought it.
    expect(ws.session.sync.status.lastSyncedAt).toBe(lastPoll);
    const delivered = (await deliveries(sandbox, 'message.received')).filter((d) => d.ok);
    expect(delivered.some((d) => d.url === ws.realtime.webhookUrl)).toBe(true);
  });
});

describe('every V2 event type reaches the store', () => {
  let sentId: number;
  let contactId: number;

  it('message.sent: a message sent from elsewhere (another agent) appears as ours', async () => {
    const { message } = await ws.session.client.messages.send(direct.id, {
      text: 'Sent from the web dashboard',
      idempotencyKey: `e2e-${Date.now()}`,
    });
    sentId = message.id;
    const stored = await eventually(() => store().messages.byId(sentId), 'message.sent applied');
    expect(stored).toMatchObject({ fromMe: true, text: 'Sent from the web dashboard', chatId: direct.id });
  });

  it('message.received', async () => {
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: direct.id,
      from: customer,
      text: 'Got it',
    });
    expect(await eventually(() => messageWith(direct.id, 'Got it'), 'message.received')).toMatchObject({
      fromMe: false,
      sender: customer,
    });
  });

  it('message.read: the customer read our message', async () => {
    expect(store().messages.byId(sentId)?.isRead).toBe(false);
    await control(sandbox, 'POST', '/inbound/read', { chat_id: direct.id, message_ids: [sentId] });
    await eventually(() => store().messages.byId(sentId)?.isRead, 'message.read applied');
  });

  it('reaction.received and reaction.sent', async () => {
    await control(sandbox, 'POST', '/inbound/reaction', { message_id: sentId, from: customer, type: 'love' });
    const reply = messageWith(direct.id, 'Got it');
    await ws.session.client.reactions.add(reply?.id as number, 'like');
    await eventually(
      () =>
        store()
          .messages.byId(sentId)
          ?.reactions.find((r) => r.kind === 'love' && !r.fromMe),
      'reaction.received applied',
    );
    await eventually(
      () =>
        store()
          .messages.byId(reply?.id as number)
          ?.reactions.find((r) => r.kind === 'like' && r.fromMe),
      'reaction.sent applied',
    );
  });

  it('typing_indicator.received and typing_indicator.removed', async () => {
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: direct.id, from: customer, display: true });
    await eventually(() => store().typing.of(direct.id).length > 0, 'typing shown');
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: direct.id, from: customer, display: false });
    await eventually(() => store().typing.of(direct.id).length === 0, 'typing removed');
  });

  it('call.completed: stored for the timeline, with its transcript', async () => {
    const { id } = await control<{ id: string }>(sandbox, 'POST', '/inbound/call', {
      from: customer,
      status: 'voicemail',
      duration: 42,
      transcription: 'Please call me back about the invoice',
    });
    const call = await eventually(
      () =>
        store()
          .calls.recent()
          .find((c) => c.id === id),
      'call.completed',
    );
    expect(call).toMatchObject({ status: 'voicemail', durationSeconds: 42, voicemail: true });
    expect(call.transcript).toBe('Please call me back about the invoice');
  });

  it('chat.created: a chat started elsewhere appears with its handles', async () => {
    const line = store().lines.list()[0]?.phoneNumber as string;
    const { chat } = await ws.session.client.chats.create({
      line,
      participants: ['+14155550142'],
      text: 'Welcome aboard',
    });
    const stored = await eventually(() => store().chats.get(chat.id), 'chat.created applied');
    expect(stored.handles.map((h) => h.identifier).sort()).toEqual([line, '+14155550142'].sort());
  });

  it('contact.created, contact.updated, contact.deleted', async () => {
    const created = await ws.session.client.contacts.create({
      firstName: 'Rosa',
      lastName: 'Diaz',
      phoneNumber: '+14155550143',
    });
    contactId = created.id;
    await eventually(() => store().contacts.get(contactId)?.lastName === 'Diaz', 'contact.created');
    await ws.session.client.contacts.update(contactId, { lastName: 'Diaz-Peralta' });
    await eventually(() => store().contacts.get(contactId)?.lastName === 'Diaz-Peralta', 'contact.updated');
    await ws.session.client.contacts.delete(contactId);
    await eventually(() => store().contacts.get(contactId) === undefined, 'contact.deleted');
  });

  it('participant.added and participant.removed refresh the group', async () => {
    const newcomer = '+14155550144';
    await control(sandbox, 'POST', `/chats/${group.id}/participants`, { identifier: newcomer });
    await eventually(
      () =>
        store()
          .chats.get(group.id)
          ?.handles.some((h) => h.identifier === newcomer),
      'participant.added',
    );
    await control(sandbox, 'DELETE', `/chats/${group.id}/participants/${encodeURIComponent(newcomer)}`);
    await eventually(
      () =>
        store()
          .chats.get(group.id)
          ?.handles.every((h) => h.identifier !== newcomer),
      'participant.removed',
    );
  });

  it('each of the 14 types was delivered to this listener and acknowledged', async () => {
    const ok = (await deliveries(sandbox)).filter((d) => d.ok && d.url === ws.realtime.webhookUrl);
    expect(new Set(ok.map((d) => d.event_type))).toEqual(new Set(V2_EVENT_TYPES));
  });
});
