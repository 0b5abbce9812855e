/**
 * V3 live events end to end: a V3 workspace's listener, its V3 subscription on the sandbox, and every
 * V3 event type from a sandbox action (a customer through the control API, or this agent through the
 * V3 API) to the store. Polling is slowed to a minute, so only a delivery explains a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, Message } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { control, eventually, sandboxFor } from '../helpers.ts';
import { deliveries, type LiveWorkspace, openLiveWorkspace, webhooksIdle } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let chat: Chat;
let group: Chat;

const store = () => ws.session.store;
const chatOf = (v3ChatId: string) => {
  const id = store().remoteIds.find('chat', v3ChatId);
  return id === undefined ? undefined : store().chats.get(id);
};
const messageOf = (v3MessageId: string): Message | undefined => {
  const id = store().remoteIds.find('message', v3MessageId);
  return id === undefined ? undefined : store().messages.byId(id);
};
const customerOf = (c: Chat) => c.handles.find((h) => !h.isMe)?.identifier as string;

async function inbound(text: string, target: Chat = chat): Promise<{ v3_message_id: string }> {
  return control(sandbox, 'POST', '/inbound/message', { chat_id: target.v3ChatId, text });
}

async function send(text: string, target: Chat = chat): Promise<string> {
  const sent = await ws.session.v3.messages.send(target.v3ChatId as string, {
    parts: [{ type: 'text', value: text }],
  });
  return sent.message.id;
}

beforeAll(async () => {
  sandbox = await sandboxFor();
  await control(sandbox, 'PUT', '/config', { delivery_delay_ms: { iMessage: 50, SMS: 50, RCS: 50 } });
  ws = await openLiveWorkspace(sandbox, { apiVersion: 'v3' });
  await ws.firstPollDone;
  expect(ws.realtime.status.state).toBe('live');
  const chats = store().chats.list();
  chat = chats.find((c) => !c.isGroup && c.service === 'iMessage' && c.v3ChatId) as Chat;
  group = chats.find((c) => c.isGroup && c.v3ChatId) as Chat;
  expect(chat).toBeDefined();
  expect(group).toBeDefined();
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

describe('V3 live events reach the store', () => {
  it('message.received: a customer message is stored and ends their typing', async () => {
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: chat.v3ChatId, display: true });
    await eventually(() => store().typing.of(chat.id).length > 0, 'typing shown');
    const { v3_message_id } = await inbound('hello over V3');
    const message = await eventually(() => messageOf(v3_message_id), 'the message stored');
    expect(message).toMatchObject({ chatId: chat.id, text: 'hello over V3', fromMe: false });
    expect(store().typing.of(chat.id)).toEqual([]);
  });

  it('chat.typing_indicator.started and .stopped show and clear typing', async () => {
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: chat.v3ChatId, display: true });
    await eventually(() => store().typing.of(chat.id).includes(customerOf(chat)), 'typing shown');
    await control(sandbox, 'POST', '/inbound/typing', { chat_id: chat.v3ChatId, display: false });
    await eventually(() => store().typing.of(chat.id).length === 0, 'typing cleared');
  });

  it('message.sent, .delivered and .read move a message sent through V3 forward', async () => {
    const id = await send('sent over V3');
    const delivered = await eventually(
      () => (messageOf(id)?.state === 'delivered' ? messageOf(id) : undefined),
      'delivered',
    );
    expect(delivered).toMatchObject({ text: 'sent over V3', fromMe: true, isRead: false });
    const types = (await deliveries(sandbox)).map((d) => d.event_type);
    expect(types).toEqual(expect.arrayContaining(['message.sent', 'message.delivered']));
    await control(sandbox, 'POST', '/inbound/read', { chat_id: chat.v3ChatId });
    await eventually(() => messageOf(id)?.isRead, 'read');
  });

  it('message.failed stores the failure code and reason on the message sent from here', async () => {
    await control(sandbox, 'POST', '/send-failures', { code: 3007, times: 1 });
    const key = ws.session.outbox.send({ chatId: chat.id, text: 'this one fails' });
    const failed = await eventually(
      () => (store().messages.get(key)?.failure ? store().messages.get(key) : undefined),
      'the failure stored',
    );
    expect(failed?.state).toBe('failed');
    expect(failed?.failure).toMatchObject({ code: '3007', reason: expect.any(String) });
    expect(failed?.error?.code).toBeTruthy();
    expect((await deliveries(sandbox, 'message.failed')).length).toBeGreaterThan(0);
  });

  it('message.edited replaces the text of the edited part', async () => {
    const id = await send('before the edit');
    await eventually(() => messageOf(id), 'sent');
    await ws.session.v3.messages.edit(id, { text: 'after the edit', partIndex: 0 });
    const edited = await eventually(
      () => (messageOf(id)?.text === 'after the edit' ? messageOf(id) : undefined),
      'edited',
    );
    expect(edited?.editedAt).toEqual(expect.any(Number));
  });

  it('reaction.added and .removed, custom emoji and part included', async () => {
    const { v3_message_id } = await inbound('react to me');
    await eventually(() => messageOf(v3_message_id), 'stored');
    await control(sandbox, 'POST', '/inbound/reaction', {
      message_id: v3_message_id,
      type: 'custom',
      custom_emoji: '🦊',
      part_index: 0,
    });
    const reaction = await eventually(() => messageOf(v3_message_id)?.reactions[0], 'reaction stored');
    expect(reaction).toMatchObject({ kind: 'custom', fromMe: false, from: customerOf(chat) });
    expect({ partIndex: reaction.partIndex, customEmoji: reaction.customEmoji }).toEqual({
      partIndex: 0,
      customEmoji: '🦊',
    });
    await control(sandbox, 'POST', '/inbound/reaction', {
      message_id: v3_message_id,
      type: 'custom',
      custom_emoji: '🦊',
      part_index: 0,
      operation: 'remove',
    });
    await eventually(() => messageOf(v3_message_id)?.reactions.length === 0, 'reaction removed');
  });

  it('participant.added and .removed change the group’s handles', async () => {
    const newcomer = '+15550199123';
    await control(sandbox, 'POST', `/chats/${group.v3ChatId}/participants`, { identifier: newcomer });
    await eventually(
      () =>
        store()
          .chats.get(group.id)
          ?.handles.some((h) => h.identifier === newcomer),
      'joined',
    );
    await control(sandbox, 'DELETE', `/chats/${group.v3ChatId}/participants/${encodeURIComponent(newcomer)}`);
    await eventually(
      () =>
        !store()
          .chats.get(group.id)
          ?.handles.some((h) => h.identifier === newcomer),
      'left',
    );
  });

  it('chat.group_name_updated renames the group', async () => {
    await ws.session.v3.chats.update(group.v3ChatId as string, { displayName: 'Renamed live' });
    await eventually(() => store().chats.get(group.id)?.displayName === 'Renamed live', 'renamed');
  });

  it('chat.created stores a chat a new customer started, with its line and handles', async () => {
    const line = store().lines.get(chat.lineId);
    const from = '+15550177001';
    const { v3_chat_id } = await control<{ v3_chat_id: string }>(sandbox, 'POST', '/inbound/message', {
      from,
      to: line?.phoneNumber,
      text: 'a brand new chat',
    });
    const created = await eventually(() => chatOf(v3_chat_id), 'the chat stored');
    expect(created.lineId).toBe(chat.lineId);
    expect(created.handles.map((h) => h.identifier)).toEqual(expect.arrayContaining([from]));
    const types = (await deliveries(sandbox)).map((d) => d.event_type);
    expect(types).toContain('chat.created');
  });

  it('phone_number.status_updated records the line’s reputation', async () => {
    const number = store().lines.get(chat.lineId)?.phoneNumber;
    const state = await control<{ orgs: Array<{ lines: Array<{ id: number; phone_number: string }> }> }>(
      sandbox,
      'GET',
      '/state',
    );
    const line = state.orgs[0]?.lines.find((l) => l.phone_number === number);
    await control(sandbox, 'PUT', `/lines/${line?.id}/reputation`, { reputation: 'AT_RISK' });
    await eventually(
      () => store().lines.reputation(chat.lineId)?.status === 'AT_RISK',
      'reputation recorded',
    );
    await control(sandbox, 'PUT', `/lines/${line?.id}/reputation`, { reputation: 'HEALTHY' });
    await eventually(() => store().lines.reputation(chat.lineId)?.status === 'HEALTHY', 'reputation back');
  });

  it('a message event carries the chat’s health', async () => {
    await control(sandbox, 'PUT', `/chats/${chat.v3ChatId}/health`, { status: 'AT_RISK' });
    await inbound('health check');
    await eventually(() => store().chats.health(chat.id)?.status === 'AT_RISK', 'health recorded');
    await control(sandbox, 'PUT', `/chats/${chat.v3ChatId}/health`, { status: 'HEALTHY' });
  });

  it('every delivery was verified and acknowledged: none refused, each event answered 200', async () => {
    await webhooksIdle(sandbox);
    const all = await deliveries(sandbox);
    expect(all.length).toBeGreaterThan(10);
    // A slow machine may time an attempt out (the sandbox retries it); the listener refuses none.
    expect(all.filter((d) => d.status_code !== null && d.status_code >= 400)).toEqual([]);
    const acknowledged = new Set(all.filter((d) => d.ok).map((d) => d.event_id));
    expect(all.filter((d) => !acknowledged.has(d.event_id))).toEqual([]);
  });
});
