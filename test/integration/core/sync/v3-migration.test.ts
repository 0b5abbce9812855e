import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import { control, eventually, sandboxFor, service, tempDir } from '../helpers.ts';
import { sessionOn, v3Copies } from './v3-helpers.ts';

interface Snapshot {
  chats: Map<
    number,
    { messages: number; texts: string[]; unread: number; pinned: boolean; archived: boolean }
  >;
}

function snapshot(session: WorkspaceSession): Snapshot {
  const chats = new Map<number, Snapshot['chats'] extends Map<number, infer V> ? V : never>();
  for (const archived of [false, true]) {
    for (const chat of session.store.chats.list({ archived })) {
      const messages = session.store.messages.page(chat.id, { limit: 10_000 });
      chats.set(chat.id, {
        messages: messages.length,
        texts: messages.map((m) => m.text),
        unread: chat.unreadCount,
        pinned: chat.pinned,
        archived: chat.archived,
      });
    }
  }
  return { chats };
}

describe('moving a populated workspace from V2 to V3', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  let before: Snapshot;
  const drafted = { chatId: 0, text: 'Half-written answer about the invoice' };
  let pinned = 0;
  let archived = 0;

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    // Given a V2 workspace with its history, a draft, a pin, an archived chat and sent messages
    const v2 = sessionOn(sandbox, dir.path, 'v2');
    await v2.start();
    const chats = v2.store.chats.list().filter((c) => !c.isGroup);
    const [first, second, third] = chats;
    if (!first || !second || !third) throw new Error('the demo has too few direct chats');
    // The customer does not answer by themselves: every message that appears later is one we made.
    const customer = first.handles.find((h) => !h.isMe)?.identifier as string;
    await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
    const key = v2.outbox.send({ chatId: first.id, text: 'Sent under V2' });
    await eventually(() => (v2.store.messages.get(key)?.id ?? 0) > 0, 'accepted under V2');
    drafted.chatId = second.id;
    v2.store.drafts.set(second.id, drafted.text, []);
    pinned = first.id;
    v2.store.chats.setFlags(first.id, { pinned: true });
    archived = third.id;
    v2.store.chats.setFlags(third.id, { archived: true });
    await eventually(() => v2.outbox.idle, 'V2 outbox idle');
    before = snapshot(v2);
    await v2.close();
    // When the same workspace opens on V3
    session = sessionOn(sandbox, dir.path, 'v3');
    await session.start();
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('keeps every chat under its id, named by the V3 id migrate_to_v3 gives', async () => {
    const after = snapshot(session);
    expect([...after.chats.keys()].sort()).toEqual([...before.chats.keys()].sort());
    for (const chatId of [pinned, drafted.chatId, archived]) {
      const { data } = await service<{ data: { v3_chat_id: string } }>(
        sandbox,
        `/chats/${chatId}/migrate_to_v3`,
      );
      expect(session.store.remoteIds.remoteId('chat', chatId)).toBe(data.v3_chat_id);
    }
  });

  it('shows every message once: the same count and texts per chat as under V2', async () => {
    // A full poll under V3 has listed every chat and fetched what changed.
    session.sync.syncNow();
    const at = Date.now();
    await eventually(() => (session.sync.status.lastSyncedAt ?? 0) > at, 'a V3 poll');
    const after = snapshot(session);
    for (const [chatId, was] of before.chats) {
      const now = after.chats.get(chatId);
      expect({ chatId, texts: now?.texts }).toEqual({ chatId, texts: was.texts });
      expect(now?.messages).toBe(was.messages);
    }
  });

  it('keeps drafts, pins, archive and read state', () => {
    const after = snapshot(session);
    expect(session.store.drafts.get(drafted.chatId)?.text).toBe(drafted.text);
    expect(after.chats.get(pinned)?.pinned).toBe(true);
    expect(after.chats.get(archived)?.archived).toBe(true);
    for (const [chatId, was] of before.chats)
      expect([chatId, after.chats.get(chatId)?.unread]).toEqual([chatId, was.unread]);
  });

  it('goes on in the same chats: a customer reply and a V3 send each appear once', async () => {
    const chatId = pinned;
    const chat = session.store.chats.get(chatId);
    const customer = chat?.handles.find((h) => !h.isMe)?.identifier as string;
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: chatId,
      from: customer,
      text: 'Got it, thanks',
    });
    const key = session.outbox.send({ chatId, text: 'Sent under V3' });
    session.sync.setOpenChat(chatId, false);
    await eventually(
      () => session.store.messages.page(chatId, { limit: 20 }).some((m) => m.text === 'Got it, thanks'),
      'the reply',
    );
    await eventually(() => (session.store.messages.get(key)?.id ?? 0) > 0, 'accepted under V3');
    session.sync.setOpenChat(null);
    const texts = session.store.messages.page(chatId, { limit: 10_000 }).map((m) => m.text);
    expect(texts.filter((t) => t === 'Got it, thanks')).toHaveLength(1);
    expect(texts.filter((t) => t === 'Sent under V3')).toHaveLength(1);
    expect(texts.filter((t) => t === 'Sent under V2')).toHaveLength(1);
    expect(texts).toHaveLength((before.chats.get(chatId)?.messages ?? 0) + 2);
    expect(
      await v3Copies(sandbox, session.store.remoteIds.remoteId('chat', chatId) as string, 'Sent under V3'),
    ).toBe(1);
  });
});
