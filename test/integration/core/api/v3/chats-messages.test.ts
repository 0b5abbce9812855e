/** V3 chats and messages against the sandbox's V3 emulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';
import type { V3Chat } from '../../../../../electron/core/api/v3/schemas.ts';
import { deliveryFailureInfo } from '../../../../../shared/delivery-failures.ts';
import { firstLineV3, freshCustomer, startTestSandbox, type TestSandbox, v3TestClient } from './helpers.ts';

let sandbox: TestSandbox;
let api: PartnerApiV3Client;
let line: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = v3TestClient(sandbox).api;
  line = await firstLineV3(api);
});

afterAll(async () => {
  await sandbox?.stop();
});

const text = (value: string) => ({ type: 'text' as const, value });

async function directChat(): Promise<{ chat: V3Chat; customer: string; firstMessageId: string }> {
  const customer = await freshCustomer(sandbox);
  const { chat, message } = await api.chats.create({
    from: line,
    to: [customer],
    message: { parts: [text('Hello from V3')], idempotencyKey: `create-${customer.slice(1)}` },
  });
  return { chat, customer, firstMessageId: message.id };
}

describe('V3 chats', () => {
  it('creates a chat with its first message; the same handles reuse the chat', async () => {
    const { chat, customer, firstMessageId } = await directChat();
    expect(chat.handles.find((h) => h.is_me)?.handle).toBe(line);
    expect(chat.handles.find((h) => !h.is_me)?.handle).toBe(customer);
    expect(chat.is_group).toBe(false);
    expect(firstMessageId).toMatch(/^[0-9a-f-]{36}$/);

    const again = await api.chats.create({ from: line, to: [customer], message: { parts: [text('Again')] } });
    expect(again.chat.id).toBe(chat.id);
    expect(again.message.id).not.toBe(firstMessageId);
  });

  it('gets a chat by id, and lists every chat once while paging with small pages', async () => {
    const { chat } = await directChat();
    expect((await api.chats.get(chat.id)).id).toBe(chat.id);
    const seen: string[] = [];
    for await (const listed of api.chats.all({ limit: 3 })) seen.push(listed.id);
    expect(seen).toContain(chat.id);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('an unknown chat is a 404 code 2001, not retried', async () => {
    const { api: counted, attempts } = v3TestClient(sandbox);
    await expect(counted.chats.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      kind: 'not_found',
      status: 404,
      code: '2001',
    });
    expect(attempts).toHaveLength(1);
  });

  it('marks read and starts/stops typing in a direct chat', async () => {
    const { chat } = await directChat();
    await api.chats.markRead(chat.id);
    await api.chats.startTyping(chat.id);
    await api.chats.stopTyping(chat.id);
  });

  it('renames a group; a direct chat refuses with 409 code 1006, and typing in a group with 2016, each once', async () => {
    const customers = [await freshCustomer(sandbox), await freshCustomer(sandbox)];
    const { chat: group } = await api.chats.create({
      from: line,
      to: customers,
      message: { parts: [text('Team')] },
    });
    expect(group.is_group).toBe(true);
    const renamed = await api.chats.update(group.id, { displayName: 'Site visit' });
    expect(renamed.display_name).toBe('Site visit');

    const { api: counted, attempts } = v3TestClient(sandbox);
    const { chat: direct } = await directChat();
    await expect(counted.chats.update(direct.id, { displayName: 'x' })).rejects.toMatchObject({
      status: 409,
      code: '1006',
      shouldRetry: false,
    });
    await expect(counted.chats.startTyping(group.id)).rejects.toMatchObject({ status: 409, code: '2016' });
    expect(attempts).toHaveLength(2);
  });
});

describe('V3 messages', () => {
  it('sends (202, pending, no service yet); the same idempotency key returns the same message', async () => {
    const { chat } = await directChat();
    const key = `send-${chat.id.slice(0, 8)}`;
    const sent = await api.messages.send(chat.id, {
      parts: [text('Quote attached soon')],
      idempotencyKey: key,
    });
    expect(sent.chat_id).toBe(chat.id);
    expect(sent.message).toMatchObject({ delivery_status: 'pending', service: null });
    const again = await api.messages.send(chat.id, {
      parts: [text('Quote attached soon')],
      idempotencyKey: key,
    });
    expect(again.message.id).toBe(sent.message.id);

    const listed: string[] = [];
    for await (const message of api.messages.all(chat.id, { limit: 1 })) listed.push(message.id);
    expect(listed.filter((id) => id === sent.message.id)).toHaveLength(1);
  });

  it('gets, edits, threads, reacts to and deletes a message', async () => {
    const { chat } = await directChat();
    const { message } = await api.messages.send(chat.id, {
      parts: [text('Original')],
      idempotencyKey: `e-${chat.id.slice(0, 8)}`,
    });
    expect((await api.messages.get(message.id)).parts[0]).toMatchObject({ type: 'text', value: 'Original' });

    const edited = await api.messages.edit(message.id, { text: 'Edited' });
    expect(edited.parts[0]).toMatchObject({ type: 'text', value: 'Edited' });

    const reply = await api.messages.send(chat.id, {
      parts: [text('A reply')],
      replyTo: { messageId: message.id },
      effect: { type: 'bubble', name: 'slam' },
    });
    expect(reply.message.reply_to).toEqual({ message_id: message.id, part_index: 0 });
    const thread: string[] = [];
    for await (const m of api.messages.threadItems(reply.message.id, { order: 'asc' })) thread.push(m.id);
    expect(thread).toEqual([message.id, reply.message.id]);

    const ack = await api.messages.react(message.id, 'add', { type: 'custom', customEmoji: '👍' });
    expect(ack.status).toBe('accepted');

    await api.messages.delete(message.id);
    await expect(api.messages.get(message.id)).rejects.toMatchObject({ status: 404, code: '2002' });
    await expect(api.messages.edit(message.id, { text: 'again' })).rejects.toMatchObject({
      status: 409,
      code: '2015',
    });
  });

  it('a content rule the client checks never reaches the service', async () => {
    const { chat } = await directChat();
    const { api: counted, attempts } = v3TestClient(sandbox);
    await expect(counted.messages.send(chat.id, { parts: [text('a'), text('b')] })).rejects.toMatchObject({
      kind: 'validation',
    });
    expect(attempts).toHaveLength(0);
  });
});

describe('V3 retries over the network', () => {
  it('a keyed send cut off mid-request is retried with the same key and arrives once', async () => {
    const { chat } = await directChat();
    const { api: counted, attempts } = v3TestClient(sandbox);
    await sandbox.control.addFault({
      kind: 'reset',
      method: 'POST',
      path: `/api/partner/v3/chats/${chat.id}/messages`,
      times: 1,
    });
    const key = `reset-${chat.id.slice(0, 8)}`;
    try {
      const sent = await counted.messages.send(chat.id, {
        parts: [text('Survives a reset')],
        idempotencyKey: key,
      });
      expect(attempts.map((a) => a.status)).toEqual([0, 202]);
      const copies: string[] = [];
      for await (const m of api.messages.all(chat.id)) {
        if (m.parts[0]?.type === 'text' && m.parts[0].value === 'Survives a reset') copies.push(m.id);
      }
      expect(copies).toEqual([sent.message.id]);
    } finally {
      await sandbox.control.clearFaults();
    }
  });

  it('a 5xx is retried for a GET, and not for a send without a key (it may have been processed)', async () => {
    const { chat } = await directChat();
    const { api: counted, attempts } = v3TestClient(sandbox);
    await sandbox.control.addFault({
      kind: 'error',
      status: 500,
      method: 'GET',
      path: `/api/partner/v3/chats/${chat.id}$`,
      times: 1,
    });
    await sandbox.control.addFault({
      kind: 'error',
      status: 500,
      method: 'POST',
      path: `/api/partner/v3/chats/${chat.id}/messages`,
      times: 1,
    });
    try {
      expect((await counted.chats.get(chat.id)).id).toBe(chat.id);
      expect(attempts.map((a) => a.status)).toEqual([500, 200]);
      const error = await counted.messages
        .send(chat.id, { parts: [text('No key')] })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'server', status: 500, code: '3006' });
      expect((error as { traceId?: string }).traceId).toBeTruthy();
      expect(attempts).toHaveLength(3);
    } finally {
      await sandbox.control.clearFaults();
    }
  });

  it('a recipient who opted out: 403 code 2024, not retried, worded by the failure table', async () => {
    const { chat } = await directChat();
    await sandbox.control.call('PUT', `/chats/${chat.id}/health`, { status: 'OPTED_OUT' });
    expect((await api.chats.get(chat.id)).health_status?.status).toBe('OPTED_OUT');
    const { api: counted, attempts } = v3TestClient(sandbox);
    const error = await counted.messages
      .send(chat.id, { parts: [text('Still there?')], idempotencyKey: `o-${chat.id.slice(0, 8)}` })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'forbidden', status: 403, code: '2024', shouldRetry: false });
    expect(attempts).toHaveLength(1);
    expect(deliveryFailureInfo((error as { code: string }).code).title).toBe(
      'The recipient asked you to stop messaging them',
    );
  });
});
