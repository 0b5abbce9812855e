/**
 * What V3 states beyond V2 reaches the domain objects the renderer gets, and what the agent asks of
 * a V3 send reaches the service: replies, effects, the preferred service (also for a send held back
 * by undo or send later), custom emoji reactions both ways, chat health and line reputation, and the
 * calls V2 once made with local ids (share contact card, call forwarding, iMessage check, migration
 * id) going to V3 under V3 ids. A real V3 session against the sandbox over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { Chat, Message } from '../../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../helpers.ts';
import { serviceV3, sessionOn, type TimedAttempt } from './v3-helpers.ts';

interface V3MessageView {
  id: string;
  reply_to: { message_id: string; part_index: number } | null;
  effect: { type: string; name: string } | null;
  preferred_service: string | null;
  parts: Array<{
    type: string;
    value?: string;
    reactions: Array<{ type: string; custom_emoji: string | null; is_me: boolean }>;
  }>;
}

describe('V3 facts and send options through a V3 workspace session', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  const attempts: TimedAttempt[] = [];

  const v3IdOf = (chat: Chat): string => {
    const id = session.store.remoteIds.remoteId('chat', chat.id);
    if (!id) throw new Error(`chat ${chat.id} has no V3 id`);
    return id;
  };
  const iMessageChats = (): Chat[] =>
    session.store.chats.list().filter((c) => c.service === 'iMessage' && !c.isGroup);
  const customerOf = (chat: Chat): string => chat.handles.find((h) => !h.isMe)?.identifier as string;
  /** A message the customer sent into the chat just now, as the store has it. */
  const inboundIn = async (chat: Chat, text: string): Promise<Message> => {
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: v3IdOf(chat),
      from: customerOf(chat),
      text,
    });
    session.sync.setOpenChat(chat.id, true);
    return eventually(
      () => session.store.messages.page(chat.id, { limit: 20 }).find((m) => m.text === text && m.v3Id),
      `"${text}" in the store`,
    );
  };
  const accepted = (key: string): Promise<Message> =>
    eventually(() => {
      const m = session.store.messages.get(key);
      return m?.v3Id ? m : undefined;
    }, `message ${key} accepted`);

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    session = sessionOn(sandbox, dir.path, 'v3', attempts);
    await session.start();
  });

  afterAll(async () => {
    await session?.close();
    await sandbox?.stop();
    dir?.remove();
  });

  it('chats, lines and messages of a V3 workspace say so, with their V3 ids', () => {
    const chats = session.store.chats.list();
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.every((c) => c.apiVersion === 'v3')).toBe(true);
    const chat = iMessageChats()[0] as Chat;
    const [message] = session.store.messages.page(chat.id, { limit: 1 });
    expect(message).toMatchObject({ apiVersion: 'v3', v3Id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(session.store.lines.list().every((l) => typeof l.v3Id === 'string')).toBe(true);
  });

  it('a chat health and a line reputation the service reports show on the chat and the line', async () => {
    const chat = iMessageChats()[1] as Chat;
    const line = session.store.lines.get(chat.lineId);
    const { id: lineOnService } = await control<{ id: number }>(sandbox, 'GET', `/v3-ids/${line?.v3Id}`);
    await control(sandbox, 'PUT', `/chats/${v3IdOf(chat)}/health`, { status: 'AT_RISK' });
    await control(sandbox, 'PUT', `/lines/${lineOnService}/reputation`, { reputation: 'AT_RISK' });
    await session.sync.refreshChat(chat.id);
    expect(session.store.chats.get(chat.id)?.health).toMatchObject({ status: 'AT_RISK' });
    const reputation = await eventually(
      () => session.store.lines.get(chat.lineId)?.reputation,
      'the line reputation',
    );
    await eventually(
      () => session.store.lines.get(chat.lineId)?.reputation?.status === 'AT_RISK',
      'the line at risk',
    );
    expect(reputation.docUrl === null || typeof reputation.docUrl === 'string').toBe(true);
    await control(sandbox, 'PUT', `/chats/${v3IdOf(chat)}/health`, { status: 'HEALTHY' });
    await control(sandbox, 'PUT', `/lines/${lineOnService}/reputation`, { reputation: 'HEALTHY' });
    await eventually(
      () => session.store.lines.get(chat.lineId)?.reputation?.status === 'HEALTHY',
      'the line healthy again',
    );
  });

  it('a threaded reply with an effect and a preferred service reaches the service with all three', async () => {
    const chat = iMessageChats()[2] as Chat;
    const question = await inboundIn(chat, 'Do you have the blue one in a medium?');
    const key = session.outbox.send({
      chatId: chat.id,
      text: 'We do — I set one aside for you',
      options: {
        replyTo: { messageId: question.v3Id as string, partIndex: 0 },
        effect: { type: 'screen', name: 'confetti' },
        preferredService: 'iMessage',
      },
    });
    // Before the service has it, the optimistic message already quotes and carries its effect
    expect(session.store.messages.get(key)).toMatchObject({
      id: null,
      replyTo: { messageId: question.v3Id, partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
    });
    const sent = await accepted(key);

    const onService = await serviceV3<V3MessageView>(sandbox, `/messages/${sent.v3Id}`);
    expect(onService.reply_to).toEqual({ message_id: question.v3Id, part_index: 0 });
    expect(onService.effect).toEqual({ type: 'screen', name: 'confetti' });
    expect(onService.preferred_service).toBe('iMessage');
    // And the store gives them back on the message the renderer reads.
    expect(session.store.messages.get(key)).toMatchObject({
      replyTo: { messageId: question.v3Id, partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
    });
  });

  it('a message synced by paging V3 carries its reply target and effect into the store', async () => {
    const chat = iMessageChats()[2] as Chat;
    // Sent from elsewhere (straight to the service), so only the sync can bring it.
    const [root] = session.store.messages.page(chat.id, { limit: 1 });
    const response = await fetch(`${sandbox.url}/api/partner/v3/chats/${v3IdOf(chat)}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.tokens[0] as string}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        message: {
          parts: [{ type: 'text', value: 'Sent from the web console' }],
          reply_to: { message_id: root?.v3Id, part_index: 0 },
          effect: { type: 'bubble', name: 'slam' },
        },
      }),
    });
    expect(response.status).toBe(202);
    session.sync.setOpenChat(chat.id, true);
    const synced = await eventually(
      () =>
        session.store.messages
          .page(chat.id, { limit: 20 })
          .find((m) => m.text === 'Sent from the web console'),
      'the message from elsewhere',
    );
    expect(synced.replyTo).toEqual({ messageId: root?.v3Id, partIndex: 0 });
    expect(synced.effect).toEqual({ type: 'bubble', name: 'slam' });

    // And a link part stays a link part (the renderer's card reads it).
    const link = 'https://shop.example.com/orders/8812';
    const linked = await fetch(`${sandbox.url}/api/partner/v3/chats/${v3IdOf(chat)}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.tokens[0] as string}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ message: { parts: [{ type: 'link', value: link }] } }),
    });
    expect(linked.status).toBe(202);
    const card = await eventually(
      () => session.store.messages.page(chat.id, { limit: 20 }).find((m) => m.text === link),
      'the link message',
    );
    expect(card.parts).toEqual([{ type: 'link', url: link }]);
  });

  it('a send held for undo keeps its reply and effect, and they go out with it', async () => {
    const chat = iMessageChats()[3] as Chat;
    const question = await inboundIn(chat, 'Is the store open on Sunday?');
    const held = session.scheduler.schedule({
      chatId: chat.id,
      text: 'Yes, from 10 to 4',
      kind: 'grace',
      dueAt: Date.now() + 300,
      options: {
        replyTo: { messageId: question.v3Id as string, partIndex: 0 },
        effect: { type: 'bubble', name: 'gentle' },
      },
    });
    expect(session.store.scheduled.get(held.id)?.options).toEqual({
      replyTo: { messageId: question.v3Id, partIndex: 0 },
      effect: { type: 'bubble', name: 'gentle' },
    });
    const sent = await eventually(
      () =>
        session.store.messages
          .page(chat.id, { limit: 20 })
          .find((m) => m.text === 'Yes, from 10 to 4' && m.v3Id),
      'the held message sent',
    );
    const onService = await serviceV3<V3MessageView>(sandbox, `/messages/${sent.v3Id}`);
    expect(onService.reply_to).toEqual({ message_id: question.v3Id, part_index: 0 });
    expect(onService.effect).toEqual({ type: 'bubble', name: 'gentle' });
  });

  it('a custom emoji reaction is sent to V3, and shows once, with its emoji', async () => {
    const chat = iMessageChats()[2] as Chat;
    const question = await inboundIn(chat, 'Thanks so much!');
    session.outbox.react(question.id as number, { kind: 'custom', customEmoji: '🦄' }, 'add');
    // Shown at once with its emoji…
    expect(session.store.messages.get(question.key)?.reactions).toEqual([
      expect.objectContaining({ kind: 'custom', customEmoji: '🦄', fromMe: true }),
    ]);
    // …and on the service as a custom reaction with that emoji.
    await eventually(async () => {
      const m = await serviceV3<V3MessageView>(sandbox, `/messages/${question.v3Id}`);
      return m.parts[0]?.reactions.some((r) => r.type === 'custom' && r.custom_emoji === '🦄' && r.is_me);
    }, 'the reaction on the service');
    // A later sync brings the service's copy, which replaces the one shown: one reaction, not two.
    const pollsBefore = attempts.length;
    await eventually(
      () => attempts.slice(pollsBefore).some((a) => a.path.includes(`/chats/${v3IdOf(chat)}/messages`)),
      'a poll of the chat',
    );
    await session.sync.refreshChat(chat.id);
    const reactions = session.store.messages.get(question.key)?.reactions ?? [];
    expect(reactions).toHaveLength(1);
    expect(reactions[0]).toMatchObject({ kind: 'custom', customEmoji: '🦄', fromMe: true });
    expect(reactions[0]?.id).toBeGreaterThan(0);

    // Removing it removes it there and here.
    session.outbox.react(question.id as number, { kind: 'custom', customEmoji: '🦄' }, 'remove');
    expect(session.store.messages.get(question.key)?.reactions).toEqual([]);
    await eventually(async () => {
      const m = await serviceV3<V3MessageView>(sandbox, `/messages/${question.v3Id}`);
      return m.parts[0]?.reactions.length === 0;
    }, 'the reaction gone from the service');
  });

  it("a customer's custom emoji reaction shows with its emoji", async () => {
    const chat = iMessageChats()[3] as Chat;
    const key = session.outbox.send({ chatId: chat.id, text: 'Your order has shipped' });
    const mine = await accepted(key);
    await control(sandbox, 'POST', '/inbound/reaction', {
      message_id: mine.v3Id,
      type: 'custom',
      custom_emoji: '🎉',
    });
    session.sync.setOpenChat(chat.id, true);
    const reaction = await eventually(
      () => session.store.messages.get(key)?.reactions.find((r) => !r.fromMe),
      "the customer's reaction",
    );
    expect(reaction).toMatchObject({ kind: 'custom', customEmoji: '🎉', from: customerOf(chat) });
  });

  it('share contact card, call forwarding, the iMessage check and the migration id go to V3 by V3 id', async () => {
    // A chat V3 created has a local id no V2 chat has: V2 must never be called with it.
    const started = session.outbox.startChat({
      lineId: session.store.lines.list()[0]?.id as number,
      recipients: ['+14155550177'],
      text: 'Welcome to the club',
    });
    const message = await accepted(started.messageKey);
    const chat = session.store.chats.get(message.chatId) as Chat;
    expect(chat.id).toBeGreaterThan(2 ** 40);
    await control(sandbox, 'PUT', '/org', { share_contact: true });
    const from = attempts.length;

    await session.messaging.shareContact(chat.id, {});
    expect(await session.messaging.migrationId(chat.id, {})).toEqual({
      v3ChatId: v3IdOf(chat),
      migrated: true,
    });
    const line = session.store.lines.get(chat.lineId);
    const updated = await session.messaging.setForwarding(chat.lineId, '+14085550123', {});
    expect(updated).toMatchObject({ id: chat.lineId, forwardingNumber: '+14085550123' });
    const { phone_numbers: lines } = await serviceV3<{
      phone_numbers: Array<{ id: string; forwarding_number: string | null }>;
    }>(sandbox, '/phone_numbers');
    expect(lines.find((l) => l.id === line?.v3Id)?.forwarding_number).toBe('+14085550123');
    expect(typeof (await session.messaging.checkImessage('+14155550177', {}))).toBe('boolean');

    // (the paths are the API's own; a V2 call would have named the chat by its number, or used
    // /chats/{id}/share_contact, /i_message_availability/check or migrate_to_v3)
    const calls = attempts
      .slice(from)
      .filter((a) => a.method !== 'GET' || a.path.includes('migrate_to_v3'))
      .map((a) => `${a.method} ${a.path}`);
    expect(calls).toEqual([
      `POST /chats/${v3IdOf(chat)}/share_contact_card`,
      `PUT /phone_numbers/${line?.v3Id}`,
      'POST /capability/check_imessage',
    ]);
  });
});
