import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { control, eventually, sandboxFor, service, tempDir } from '../helpers.ts';

interface ApiChat {
  id: number;
  message_count: number;
  service: string;
  chat_handles: Array<{ phone_number: string }>;
}

/** How many messages with this text the service holds in the chat (simulated replies do not count). */
async function copiesOnService(sandbox: RunningSandbox, chatId: number, text: string): Promise<number> {
  const { data } = await service<{ data: Array<{ text: string }> }>(
    sandbox,
    `/chats/${chatId}/chat_messages?sort=desc&per_page=100`,
  );
  return data.filter((m) => m.text === text).length;
}

describe('a workspace session against the sandbox', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  const fast = { openChatIntervalMs: 200, backgroundIntervalMs: 500, markReadDelayMs: 50 };

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    session = new WorkspaceSession({
      dataDir: dir.path,
      connection: {
        baseUrl: sandbox.url,
        tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
        token: sandbox.tokens[0] as string,
      },
      sync: fast,
      client: { backoff: { baseMs: 50, capMs: 500 } },
    });
    await session.start();
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('first sync brings every line, chat, newest messages and contact into the store', async () => {
    const { phone_numbers: lines } = await service<{ phone_numbers: Array<{ phone_number: string }> }>(
      sandbox,
      '/phone_numbers',
    );
    expect(session.store.lines.list().map((l) => l.phoneNumber)).toEqual(lines.map((l) => l.phone_number));
    let total = 0;
    for (const line of lines) {
      const { meta } = await service<{ meta: { total_count: number } }>(
        sandbox,
        `/chats?phone_number=${encodeURIComponent(line.phone_number)}`,
      );
      total += meta.total_count;
    }
    const chats = session.store.chats.list();
    expect(chats).toHaveLength(total);
    expect(chats.every((c) => c.lastMessage !== null)).toBe(true);
    const { pagination } = await service<{ pagination: { total_count: number } }>(
      sandbox,
      '/contacts?per_page=1',
    );
    expect(session.store.contacts.count()).toBe(pagination.total_count);
    // Inbox order is by the last message, newest first, with unread counts derived locally.
    const times = chats.filter((c) => !c.pinned).map((c) => c.lastActivityAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(chats.some((c) => c.unreadCount > 0)).toBe(true);
    expect(chats.some((c) => c.handles.some((h) => !h.isMe && h.contactName))).toBe(true);
  });

  it('sends optimistically, exactly once, and follows the message to delivered', async () => {
    const chat = session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup);
    if (!chat) throw new Error('demo has no direct iMessage chat');
    const key = session.outbox.send({ chatId: chat.id, text: 'Your technician is on the way' });
    // The bubble exists before any network round trip.
    expect(session.store.messages.get(key)).toMatchObject({
      text: 'Your technician is on the way',
      fromMe: true,
      id: null,
    });
    const delivered = await eventually(() => {
      const m = session.store.messages.get(key);
      return m?.state === 'delivered' ? m : undefined;
    }, 'delivered');
    expect(delivered.id).toBeGreaterThan(0);
    expect(await copiesOnService(sandbox, chat.id, 'Your technician is on the way')).toBe(1);
    expect(
      session.store.messages
        .page(chat.id, { limit: 500 })
        .filter((m) => m.text === 'Your technician is on the way'),
    ).toHaveLength(1);
  });

  it('a customer reply in the open chat arrives by polling and is marked read while focused', async () => {
    const chat = session.store.chats.list().find((c) => c.service === 'SMS' && !c.isGroup);
    if (!chat) throw new Error('demo has no direct SMS chat');
    session.sync.setOpenChat(chat.id, true);
    const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'Is Thursday 9am possible?',
    });
    const reply = await eventually(
      () =>
        session.store.messages
          .page(chat.id, { limit: 5 })
          .find((m) => m.text === 'Is Thursday 9am possible?'),
      'the reply in the store',
    );
    expect(reply.fromMe).toBe(false);
    await eventually(async () => {
      const { data } = await service<{ data: Array<{ text: string; is_read: boolean }> }>(
        sandbox,
        `/chats/${chat.id}/chat_messages?sort=desc&per_page=5`,
      );
      return data.find((m) => m.text === 'Is Thursday 9am possible?')?.is_read;
    }, 'read on the service');
    expect(session.store.chats.get(chat.id)?.unreadCount).toBe(0);
    session.sync.setOpenChat(null);
  });

  it('retries through 5xx faults with the same key: delivered once', async () => {
    const chat = session.store.chats.list().find((c) => !c.isGroup && c.service === 'RCS');
    if (!chat) throw new Error('demo has no RCS chat');
    await control(sandbox, 'POST', '/faults', {
      method: 'POST',
      path: `/chats/${chat.id}/chat_messages$`,
      kind: 'error',
      status: 503,
      times: 8,
    });
    const key = session.outbox.send({ chatId: chat.id, text: 'Through the storm' });
    await eventually(
      () => session.store.messages.get(key)?.state === 'delivered',
      'delivered despite faults',
      40_000,
    );
    expect(await copiesOnService(sandbox, chat.id, 'Through the storm')).toBe(1);
    await control(sandbox, 'DELETE', '/faults');
  });

  it('keeps a permanently refused message with its reason, and discards it on request', async () => {
    const chat = session.store.chats.list().find((c) => !c.isGroup);
    if (!chat) throw new Error('no chat');
    const key = session.outbox.send({
      chatId: chat.id,
      text: 'See attached',
      attachmentUrls: ['ftp://example.invalid/file.pdf'],
    });
    const failed = await eventually(() => {
      const m = session.store.messages.get(key);
      return m?.state === 'failed' ? m : undefined;
    }, 'failed');
    expect(failed.error?.message).toMatch(/http/i);
    expect(failed.error?.retryable).toBe(false);
    session.outbox.discard(key);
    expect(session.store.messages.get(key)).toBeUndefined();
  });

  it('starts a new chat through a provisional one and lands in the real chat', async () => {
    const line = session.store.lines.list()[0];
    if (!line) throw new Error('no line');
    const replaced: Array<{ from: number; to: number }> = [];
    const off = session.store.events.on('chats.replaced', (e) => replaced.push(e));
    const { chatId, messageKey } = session.outbox.startChat({
      lineId: line.id,
      recipients: ['+14155550777'],
      text: 'Hello from Parley',
    });
    expect(chatId).toBeLessThan(0);
    const settled = await eventually(() => {
      const m = session.store.messages.get(messageKey);
      return m && m.chatId > 0 ? m : undefined;
    }, 'the real chat');
    expect(session.store.chats.get(chatId)).toBeUndefined();
    expect(replaced).toEqual([{ from: chatId, to: settled.chatId }]);
    off();
    const real = session.store.chats.get(settled.chatId);
    expect(real?.handles.map((h) => h.identifier).sort()).toEqual([line.phoneNumber, '+14155550777'].sort());
    const { data } = await service<{ data: { chat: ApiChat | null } }>(
      sandbox,
      `/chats/find?phone_number=${encodeURIComponent(line.phoneNumber)}&phone_numbers[]=${encodeURIComponent('+14155550777')}`,
    );
    expect(data.chat?.id).toBe(settled.chatId);
  });

  it('removes locally what was deleted on the service', async () => {
    const chat = session.store.chats.list().find((c) => !c.isGroup && c.service === 'iMessage');
    if (!chat) throw new Error('no chat');
    const key = session.outbox.send({ chatId: chat.id, text: 'to be deleted elsewhere' });
    const sent = await eventually(() => session.store.messages.get(key)?.id, 'accepted');
    await fetch(`${sandbox.url}/api/partner/v2/chats/${chat.id}/chat_messages/${sent}`, {
      method: 'DELETE',
      headers: { 'x-partner-integration-token': sandbox.tokens[0] as string },
    });
    session.sync.setOpenChat(chat.id, false);
    await eventually(() => session.store.messages.get(key) === undefined, 'gone locally');
    session.sync.setOpenChat(null);
  });
});
